-- Issue 3, identity and access: MFA, step-up codes, sign-in throttling, web config, feature
-- flag overrides, impersonation, the write audit log and first-party telemetry.

ALTER TABLE identities ADD COLUMN is_support boolean NOT NULL DEFAULT false;
ALTER TABLE identities ADD COLUMN mfa_required boolean NOT NULL DEFAULT false;
ALTER TABLE identities ADD COLUMN phone_number text;
ALTER TABLE identities ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE businesses ADD COLUMN mfa_required boolean NOT NULL DEFAULT false;

-- Who a session was issued to on someone's behalf (impersonation), for the audit trail.
ALTER TABLE sessions ADD COLUMN impersonator_identity_id uuid REFERENCES identities (id);

-- TOTP authenticators (RFC 6238). last_step is the last accepted time step: a code whose step is
-- not greater is refused, so no code is ever accepted twice (replay), even within its window.
CREATE TABLE totp_authenticators (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  secret       text NOT NULL,
  active       boolean NOT NULL DEFAULT false,
  last_step    bigint NOT NULL DEFAULT -1,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX totp_authenticators_identity ON totp_authenticators (identity_id);

-- Emailed one-time codes (step-up to email-otp). Only a hash of the code is kept.
CREATE TABLE email_otps (
  id           uuid PRIMARY KEY,
  identity_id  uuid NOT NULL REFERENCES identities (id),
  code_hash    text NOT NULL,
  expires_at   timestamptz NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_otps_identity ON email_otps (identity_id, created_at DESC);

-- Mail a development server would have sent (no mail server exists here).
CREATE TABLE dev_outbox (
  id          bigserial PRIMARY KEY,
  recipient   text NOT NULL,
  subject     text NOT NULL,
  body        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_outbox_recipient ON dev_outbox (lower(recipient), id DESC);

-- Failed sign-in attempts, a sliding window shared by every API process. key is
-- 'account:<lower email>' or 'address:<client address>'.
CREATE TABLE login_failures (
  key  text NOT NULL,
  at   timestamptz NOT NULL
);
CREATE INDEX login_failures_key ON login_failures (key, at);

-- §3 web config: one row; environment variables override it per process.
CREATE TABLE web_config (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  config  jsonb NOT NULL DEFAULT '{}'
);
INSERT INTO web_config (id, config) VALUES (true, '{}');

CREATE TABLE business_feature_flags (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  overrides    jsonb NOT NULL DEFAULT '{}',
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Sensitive profile data. Account numbers are kept whole (encryption at rest is out of scope)
-- but never returned: answers carry the last four digits only.
CREATE TABLE bank_details (
  spend_user_id        uuid PRIMARY KEY REFERENCES spend_users (id),
  account_holder_name  text NOT NULL,
  routing_number       text NOT NULL,
  account_number       text NOT NULL,
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE business_tax_info (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  legal_name   text NOT NULL,
  tin          text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Every write call (POST/PATCH/PUT/DELETE) by a signed-in caller: who, on whose behalf, what, outcome.
CREATE TABLE audit_log (
  id                  bigserial PRIMARY KEY,
  identity_id         uuid NOT NULL,
  spend_user_id       uuid,
  business_id         uuid,
  impersonator_email  text,
  call_id             text NOT NULL,
  method              text NOT NULL,
  path                text NOT NULL,
  status              integer NOT NULL,
  at                  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_business ON audit_log (business_id, at DESC);

CREATE TABLE telemetry_events (
  id           bigserial PRIMARY KEY,
  name         text NOT NULL,
  path         text NOT NULL,
  props        jsonb NOT NULL,
  ts           timestamptz NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE error_reports (
  id           bigserial PRIMARY KEY,
  report       jsonb NOT NULL,
  received_at  timestamptz NOT NULL DEFAULT now()
);
