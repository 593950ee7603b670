-- Issue 31: external accounting firms (the advisor console). A firm has users (identities), invites,
-- proposals to client businesses, and authorizations that bind a firm user to a hidden spend user
-- (ADVISOR_CONSOLE_ADMIN/_USER) inside each client. docs/design/issue-31-surfaces.md §2.2.
CREATE TABLE external_firms (
  id            uuid PRIMARY KEY,
  name          text NOT NULL,
  logo_file_id  uuid,
  status        text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- A firm's logo (PNG or JPEG, ≤ 512 KB, content checked as receipts are); logo_file_id names the live one.
CREATE TABLE external_firm_logos (
  id            uuid PRIMARY KEY,
  firm_id       uuid NOT NULL REFERENCES external_firms (id),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  size          integer NOT NULL CHECK (size > 0 AND size <= 524288),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes         bytea NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE external_firms ADD CONSTRAINT external_firms_logo FOREIGN KEY (logo_file_id) REFERENCES external_firm_logos (id);

-- §3 external_firm_applicant: an identity applying for a firm, before (or instead of) the firm.
CREATE TABLE external_firm_applications (
  id                uuid PRIMARY KEY,
  identity_id       uuid NOT NULL REFERENCES identities (id),
  firm_name         text NOT NULL,
  admin_first_name  text NOT NULL,
  admin_last_name   text NOT NULL,
  status            text NOT NULL DEFAULT 'APPLIED' CHECK (status IN ('APPLIED', 'APPROVED', 'MANUAL_REVIEW')),
  reasons           text[] NOT NULL DEFAULT '{}',
  -- Set once the applicant proved the mailbox (firm.apply.verify); an unverified row is nobody's yet.
  verified_at       timestamptz,
  firm_id           uuid REFERENCES external_firms (id),
  created_at        timestamptz NOT NULL DEFAULT now(),
  decided_at        timestamptz
);
CREATE INDEX external_firm_applications_identity ON external_firm_applications (identity_id, created_at DESC);

-- §3 external_firm_user.
CREATE TABLE external_firm_users (
  id           uuid PRIMARY KEY,
  firm_id      uuid NOT NULL REFERENCES external_firms (id),
  identity_id  uuid NOT NULL REFERENCES identities (id),
  role         text NOT NULL CHECK (role IN ('EXTERNAL_FIRM_ADMIN', 'EXTERNAL_FIRM_USER')),
  status       text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'REMOVED')),
  first_name   text NOT NULL,
  last_name    text NOT NULL,
  email        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (firm_id, identity_id)
);
CREATE INDEX external_firm_users_identity ON external_firm_users (identity_id) WHERE status = 'ACTIVE';

CREATE TABLE external_firm_invites (
  id            uuid PRIMARY KEY,
  firm_id       uuid NOT NULL REFERENCES external_firms (id),
  email         text NOT NULL,
  role          text NOT NULL CHECK (role IN ('EXTERNAL_FIRM_ADMIN', 'EXTERNAL_FIRM_USER')),
  token_hash    text NOT NULL UNIQUE,
  invited_by    uuid NOT NULL REFERENCES external_firm_users (id),
  expires_at    timestamptz NOT NULL,
  accepted_at   timestamptz,
  revoked_at    timestamptz,
  resent_at     timestamptz,
  resend_count  int NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now()
);
-- One open invite per firm and address: a second invite is a resend.
CREATE UNIQUE INDEX external_firm_invites_open ON external_firm_invites (firm_id, lower(email))
  WHERE accepted_at IS NULL AND revoked_at IS NULL;

CREATE TABLE external_firm_proposals (
  id             uuid PRIMARY KEY,
  firm_id        uuid NOT NULL REFERENCES external_firms (id),
  direction      text NOT NULL CHECK (direction IN ('FIRM_TO_BUSINESS', 'BUSINESS_TO_FIRM')),
  client_email   text NOT NULL,
  client_name    text NOT NULL,
  business_id    uuid REFERENCES businesses (id),
  rights         text[] NOT NULL CHECK (rights <@ ARRAY['READ', 'CODE', 'CLOSE_BOOKS'] AND 'READ' = ANY (rights)),
  firm_user_ids  uuid[] NOT NULL DEFAULT '{}',
  status         text NOT NULL CHECK (status IN ('DRAFT', 'PENDING', 'ACCEPTED', 'REJECTED', 'REVOKED')),
  created_by     uuid NOT NULL REFERENCES identities (id),
  decided_by     uuid REFERENCES identities (id),
  decided_at     timestamptz,
  batch_id       uuid,
  client_key     text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX external_firm_proposals_open ON external_firm_proposals (firm_id, lower(client_email))
  WHERE status IN ('DRAFT', 'PENDING');
CREATE INDEX external_firm_proposals_firm ON external_firm_proposals (firm_id, created_at DESC);
CREATE INDEX external_firm_proposals_business ON external_firm_proposals (business_id) WHERE business_id IS NOT NULL;

CREATE TABLE external_firm_authorizations (
  id           uuid PRIMARY KEY,
  firm_id      uuid NOT NULL REFERENCES external_firms (id),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  proposal_id  uuid REFERENCES external_firm_proposals (id),
  rights       text[] NOT NULL CHECK (rights <@ ARRAY['READ', 'CODE', 'CLOSE_BOOKS'] AND 'READ' = ANY (rights)),
  status       text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'ENDED')),
  ended_by     text CHECK (ended_by IN ('CLIENT', 'FIRM')),
  ended_at     timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
-- FIRM_7001 by constraint: one live authorization per firm and business (two racing accepts).
CREATE UNIQUE INDEX external_firm_authorizations_active ON external_firm_authorizations (firm_id, business_id)
  WHERE status = 'ACTIVE';
CREATE INDEX external_firm_authorizations_business ON external_firm_authorizations (business_id) WHERE status = 'ACTIVE';

-- The hidden spend user of a firm user inside a client (D3).
CREATE TABLE external_firm_authorization_users (
  authorization_id  uuid NOT NULL REFERENCES external_firm_authorizations (id),
  firm_user_id      uuid NOT NULL REFERENCES external_firm_users (id),
  spend_user_id     uuid NOT NULL UNIQUE REFERENCES spend_users (id),
  PRIMARY KEY (authorization_id, firm_user_id)
);
CREATE INDEX external_firm_authorization_users_firm_user ON external_firm_authorization_users (firm_user_id);

CREATE TABLE external_firm_referrals (
  id          uuid PRIMARY KEY,
  firm_id     uuid NOT NULL REFERENCES external_firms (id),
  code        text NOT NULL UNIQUE,
  label       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);

ALTER TABLE businesses ADD COLUMN referred_by_firm_id uuid REFERENCES external_firms (id);
