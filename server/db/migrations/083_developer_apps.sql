-- Issue 32: developer applications (OAuth 2.0 authorization code + PKCE, RFC 6749 §4.1, RFC 7636).
-- An app is an api_clients row of kind 'developer_app' (its secrets, rate limit and request log are
-- the API clients' own); business_id is the business that registered (publishes) it, created_by the
-- admin who did. It acts for nobody by itself: each grant acts as the person who allowed it.
-- First-party apps (browser extension, community, academy sign-on) can be added later as rows.
ALTER TABLE api_clients ADD COLUMN kind text NOT NULL DEFAULT 'client' CHECK (kind IN ('client', 'developer_app'));

CREATE TABLE developer_apps (
  id            uuid PRIMARY KEY REFERENCES api_clients (id),
  description   text NOT NULL DEFAULT '',
  homepage_url  text,
  logo_url      text,
  client_type   text NOT NULL CHECK (client_type IN ('confidential', 'public'))
);

-- Exact redirect URIs (no prefixes, no wildcards).
CREATE TABLE developer_app_redirect_uris (
  app_id  uuid NOT NULL REFERENCES developer_apps (id),
  uri     text NOT NULL,
  PRIMARY KEY (app_id, uri)
);

-- A business's consent to an app: the app acts as user_id in business_id, narrowed to scopes.
CREATE TABLE oauth_grants (
  id            uuid PRIMARY KEY,
  app_id        uuid NOT NULL REFERENCES developer_apps (id),
  business_id   uuid NOT NULL REFERENCES businesses (id),
  user_id       uuid NOT NULL REFERENCES spend_users (id),
  scopes        text[] NOT NULL,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX oauth_grants_business ON oauth_grants (business_id, created_at DESC) WHERE revoked_at IS NULL;
CREATE INDEX oauth_grants_app ON oauth_grants (app_id) WHERE revoked_at IS NULL;

-- One-time authorization codes (60 s), stored as sha256; grant_id is what the code issued, so a
-- second use revokes it (RFC 6749 §4.1.2).
CREATE TABLE oauth_codes (
  code_hash       text PRIMARY KEY,
  app_id          uuid NOT NULL REFERENCES developer_apps (id),
  business_id     uuid NOT NULL REFERENCES businesses (id),
  user_id         uuid NOT NULL REFERENCES spend_users (id),
  redirect_uri    text NOT NULL,
  code_challenge  text NOT NULL,
  scopes          text[] NOT NULL,
  created_at      timestamptz NOT NULL,
  expires_at      timestamptz NOT NULL,
  used_at         timestamptz,
  grant_id        uuid REFERENCES oauth_grants (id)
);
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);

-- Rotating refresh tokens (30 days), sha256 stored; a spent one presented again revokes its grant.
CREATE TABLE oauth_refresh_tokens (
  id          uuid PRIMARY KEY,
  grant_id    uuid NOT NULL REFERENCES oauth_grants (id),
  token_hash  text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id);
