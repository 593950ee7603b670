-- Single sign-on (issue 14): identity providers per email domain, the state of sign-ins in
-- flight, and the one-time codes that hand a finished sign-in to the app.

-- One provider per email domain across all businesses: sign-in finds the provider by the email's
-- domain, so a second configuration for a domain is refused (AUTH_7030). Removing a provider
-- deletes its row (nothing mirrors it).
CREATE TABLE sso_providers (
  id                  uuid PRIMARY KEY,
  business_id         uuid NOT NULL REFERENCES businesses (id),
  protocol            text NOT NULL CHECK (protocol IN ('saml', 'oidc')),
  brand               text NOT NULL,
  domain              text NOT NULL,
  enabled             boolean NOT NULL DEFAULT false,
  enforced            boolean NOT NULL DEFAULT false,
  verified_at         timestamptz,
  -- SAML: where the metadata came from (null when pasted as XML), the XML itself, and what we keep of it.
  metadata_url        text,
  metadata_xml        text,
  idp_entity_id       text,
  idp_sso_url         text,
  idp_certificates    jsonb,
  -- OIDC: the issuer, our client at it, its secret (AES-256-GCM, server/auth/sso/secret.ts) and the
  -- discovery document fetched when configured (sign-in builds its client from it, no refetch).
  issuer              text,
  client_id           text,
  client_secret_enc   text,
  oidc_metadata       jsonb,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  -- Enforcement needs the provider enabled (schema/sso-rules.ts).
  CHECK (enabled OR NOT enforced),
  CHECK (protocol <> 'oidc' OR (issuer IS NOT NULL AND client_id IS NOT NULL AND client_secret_enc IS NOT NULL)),
  CHECK (protocol <> 'saml' OR (idp_entity_id IS NOT NULL AND idp_sso_url IS NOT NULL AND idp_certificates IS NOT NULL))
);
CREATE UNIQUE INDEX sso_providers_domain_key ON sso_providers (lower(domain));
CREATE INDEX sso_providers_business ON sso_providers (business_id);

-- A sign-in in flight, between `start` and the IdP's answer (OIDC callback or SAML ACS): found by
-- the hash of the state (OIDC `state`, SAML RelayState), used once (used_at), 10 minutes.
-- provider_id is null for Google (configured by the server, not a business).
CREATE TABLE sso_sign_in_states (
  state_hash        text PRIMARY KEY,
  kind              text NOT NULL CHECK (kind IN ('oidc', 'saml', 'google')),
  provider_id       uuid REFERENCES sso_providers (id) ON DELETE CASCADE,
  nonce             text,
  code_verifier     text,
  saml_request_id   text,
  redirect          text,
  expires_at        timestamptz NOT NULL,
  used_at           timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sso_sign_in_states_expires ON sso_sign_in_states (expires_at);

-- A finished sign-in waiting for the app (`sso.complete`): only the code's hash is kept; 60 s,
-- single use.
CREATE TABLE sso_completion_codes (
  code_hash     text PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('oidc', 'saml', 'google')),
  identity_id   uuid NOT NULL REFERENCES identities (id),
  user_id       uuid NOT NULL REFERENCES spend_users (id),
  business_id   uuid NOT NULL REFERENCES businesses (id),
  -- The session an invite accepted on the way already opened (the token goes on it), else null.
  session_id    uuid,
  redirect      text,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sso_completion_codes_expires ON sso_completion_codes (expires_at);
