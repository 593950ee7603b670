-- Passwordless sign-in links: single use, 15 minutes. Only a sha256 of the token is kept, so a
-- database read does not hand out working links.
CREATE TABLE passwordless_links (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  token_hash   text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX passwordless_links_identity ON passwordless_links (identity_id, created_at DESC);
