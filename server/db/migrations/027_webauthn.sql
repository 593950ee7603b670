-- Issue 14 part 6: passkeys (WebAuthn) as a second factor and for step-up, and the app-attest
-- challenges of the mobile wrapper.

-- One row per registered passkey. credential_id and public_key are base64url text (the same in
-- PGlite and PostgreSQL, and as the ceremonies carry them). counter is the authenticator's
-- signature counter: an assertion whose counter does not grow (when either is non-zero) is a
-- cloned authenticator and is refused.
CREATE TABLE webauthn_credentials (
  id             uuid PRIMARY KEY,
  identity_id    uuid NOT NULL REFERENCES identities (id),
  credential_id  text NOT NULL UNIQUE,
  public_key     text NOT NULL,
  counter        bigint NOT NULL DEFAULT 0,
  transports     text[] NOT NULL DEFAULT '{}',
  device_type    text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up      boolean NOT NULL DEFAULT false,
  name           text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz
);
CREATE INDEX webauthn_credentials_identity ON webauthn_credentials (identity_id, created_at);

-- Ceremony challenges: single use (used_at), 5 minutes, bound to the identity and the session
-- that asked, and to their purpose (a registration challenge never passes an authentication).
CREATE TABLE webauthn_challenges (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  session_id   uuid NOT NULL,
  purpose      text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  challenge    text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webauthn_challenges_identity ON webauthn_challenges (identity_id, created_at DESC);

-- App attest (§6 recent-token): challenges for the mobile wrapper, single use, 5 minutes.
CREATE TABLE app_attest_challenges (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  session_id   uuid NOT NULL,
  challenge    text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_attest_challenges_identity ON app_attest_challenges (identity_id, created_at DESC);

-- What a wrapper presented against a challenge. device_verified stays false: the server checks
-- the challenge and the shape of the evidence, not Apple's or Google's signatures (see
-- server/CONTEXT.md, "App attest").
CREATE TABLE app_attestations (
  id               uuid PRIMARY KEY,
  identity_id      uuid NOT NULL REFERENCES identities (id),
  platform         text NOT NULL CHECK (platform IN ('ios', 'android')),
  key_id           text,
  device_verified  boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_attestations_identity ON app_attestations (identity_id, created_at DESC);
