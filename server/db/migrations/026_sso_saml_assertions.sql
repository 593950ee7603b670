-- Issue 14: SAML replay guard. One row per consumed assertion id per SSO provider, kept until the
-- assertion's expiry plus the allowed clock skew (server/auth/saml/replay.ts). The primary key is
-- what makes a second use fail, also under concurrency (INSERT … ON CONFLICT DO NOTHING). No
-- foreign key: rows die with their expiry (purged per provider on each use), and the providers table
-- is another migration's (025).
CREATE TABLE sso_saml_assertions (
  provider_id uuid NOT NULL,
  assertion_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (provider_id, assertion_id)
);
