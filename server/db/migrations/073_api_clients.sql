-- Issue 32: customer API clients (OAuth 2.0 client credentials, RFC 6749 §4.4).
-- A client belongs to a business and acts as the admin who created it (created_by), narrowed to
-- its API scopes; removing that admin (deleted, suspended, no longer an admin) stops its tokens.
CREATE TABLE api_clients (
  id                    uuid PRIMARY KEY,
  business_id           uuid NOT NULL REFERENCES businesses (id),
  name                  text NOT NULL,
  scopes                text[] NOT NULL,
  rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute BETWEEN 1 AND 100000),
  expires_at            timestamptz,
  created_by            uuid NOT NULL REFERENCES spend_users (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  -- Deleted clients stay (event history and the request log name them); their tokens stop at once.
  deleted_at            timestamptz
);
CREATE INDEX api_clients_business ON api_clients (business_id, created_at DESC) WHERE deleted_at IS NULL;

-- Secrets are shown once and stored as sha256 of 32 random bytes (a high-entropy secret needs no
-- slow hash); `last_four` is what the page shows (llsk_…abcd). Revoked secrets stay listed.
CREATE TABLE api_client_secrets (
  id            uuid PRIMARY KEY,
  client_id     uuid NOT NULL REFERENCES api_clients (id),
  business_id   uuid NOT NULL REFERENCES businesses (id),
  secret_hash   text NOT NULL UNIQUE,
  last_four     text NOT NULL,
  created_by    uuid REFERENCES spend_users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz,
  last_used_at  timestamptz
);
CREATE INDEX api_client_secrets_client ON api_client_secrets (client_id, created_at DESC);

-- The per-client rate limit: one counter per client per fixed minute window, taken with an
-- atomic upsert so concurrent requests on many processes never overshoot. Old windows are pruned.
CREATE TABLE api_client_rate_windows (
  client_id     uuid NOT NULL REFERENCES api_clients (id),
  window_start  timestamptz NOT NULL,
  hits          integer NOT NULL,
  PRIMARY KEY (client_id, window_start)
);

-- Every call an API client's token makes (refused ones too): the client page's "Recent requests".
-- Rows older than 30 days are pruned as new ones are written.
CREATE TABLE api_client_requests (
  id           bigserial PRIMARY KEY,
  client_id    uuid NOT NULL REFERENCES api_clients (id),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  call_id      text NOT NULL,
  method       text NOT NULL,
  path         text NOT NULL,
  status       integer NOT NULL,
  duration_ms  integer NOT NULL,
  at           timestamptz NOT NULL
);
CREATE INDEX api_client_requests_client ON api_client_requests (client_id, at DESC);
CREATE INDEX api_client_requests_at ON api_client_requests (at);
