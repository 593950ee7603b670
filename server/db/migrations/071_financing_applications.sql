-- Issue 31, the financing application (docs/design/issue-31-surfaces.md §2.2, §5): a person with a
-- mailed code fills the steps of an application; submitting it runs the decision engine
-- (schema/application-rules.ts) and, when approved, creates a business whose owner is the applicant.
-- Sensitive values (SSN, bank numbers) are encrypted with server/auth/vendor-bank-crypto.ts (AAD
-- `financing_application:<row id>:<field>`) and only their last four digits are ever answered.

-- The code mailed by application.start, until application.verify uses it: kept here, not on an
-- identity, so asking for a code never creates an identity for an address nobody has proven.
CREATE TABLE application_sign_in_codes (
  id           uuid PRIMARY KEY,
  email        text NOT NULL,
  first_name   text NOT NULL,
  last_name    text NOT NULL,
  referral_code text,
  code_hash    text NOT NULL,
  attempts     integer NOT NULL DEFAULT 0,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_sign_in_codes_email ON application_sign_in_codes (email, created_at DESC);

CREATE TABLE financing_applications (
  id                     uuid PRIMARY KEY,
  status                 text NOT NULL DEFAULT 'DRAFT'
    CHECK (status IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'MANUAL_REVIEW', 'REJECTED', 'WITHDRAWN')),
  business_name          text CHECK (length(business_name) <= 200),
  current_step           text,
  -- One object per step: business_details, financial_details, company, leadership, products, checkbox.
  answers                jsonb NOT NULL DEFAULT '{}',
  submitted_at           timestamptz,
  decided_at             timestamptz,
  decision               jsonb,
  ofac_status            text,
  business_id            uuid REFERENCES businesses (id),
  external_firm_id       uuid,
  referral_code          text,
  survey                 jsonb,
  created_by_identity_id uuid NOT NULL REFERENCES identities (id),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  version                integer NOT NULL DEFAULT 1,
  CHECK ((status = 'APPROVED') = (business_id IS NOT NULL))
);
CREATE UNIQUE INDEX financing_applications_business ON financing_applications (business_id) WHERE business_id IS NOT NULL;

-- §3 financing_application_users: who may act on an application (the token's membership).
CREATE TABLE financing_application_users (
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  identity_id              uuid NOT NULL REFERENCES identities (id),
  role                     text NOT NULL CHECK (role IN ('APPLICANT', 'CO_APPLICANT')),
  -- The names given when asking for the code (screened; the owner's names when no KYC names them).
  first_name               text NOT NULL,
  last_name                text NOT NULL,
  created_at               timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (financing_application_id, identity_id)
);
CREATE INDEX financing_application_users_identity ON financing_application_users (identity_id);

CREATE TABLE kyc_individuals (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  first_name               text,
  last_name                text,
  email                    text,
  title                    text,
  dob                      date,
  ssn_cipher               text,
  ssn_last_four            text CHECK (ssn_last_four ~ '^[0-9]{4}$'),
  address                  jsonb,
  citizenship              text,
  is_control_person        boolean NOT NULL DEFAULT false,
  ofac_status              text,
  completed_at             timestamptz,
  created_at               timestamptz NOT NULL DEFAULT now(),
  CHECK ((ssn_cipher IS NULL) = (ssn_last_four IS NULL))
);
CREATE INDEX kyc_individuals_application ON kyc_individuals (financing_application_id);
CREATE UNIQUE INDEX kyc_individuals_one_control ON kyc_individuals (financing_application_id) WHERE is_control_person;

CREATE TABLE application_owners (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  kind                     text NOT NULL CHECK (kind IN ('INDIVIDUAL', 'ENTITY')),
  name                     text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email                    text,
  percent_bp               integer NOT NULL CHECK (percent_bp BETWEEN 0 AND 10000),
  kyc_individual_id        uuid REFERENCES kyc_individuals (id),
  created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_owners_application ON application_owners (financing_application_id);

CREATE TABLE application_documents (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  kind                     text NOT NULL CHECK (kind IN ('KYB', 'KYC')),
  doc_type                 text NOT NULL,
  kyc_individual_id        uuid REFERENCES kyc_individuals (id),
  created_at               timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'KYC') = (kyc_individual_id IS NOT NULL))
);
CREATE INDEX application_documents_application ON application_documents (financing_application_id);

-- A page's bytes are kept in the row (STORAGE EXTERNAL: already compressed formats), as bank statements are.
CREATE TABLE application_document_pages (
  document_id  uuid NOT NULL REFERENCES application_documents (id),
  page         integer NOT NULL CHECK (page >= 1),
  content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  size         integer NOT NULL CHECK (size > 0),
  bytes        bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, page)
);
ALTER TABLE application_document_pages ALTER COLUMN bytes SET STORAGE EXTERNAL;

CREATE TABLE application_bank_accounts (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  holder_name              text NOT NULL,
  type                     text NOT NULL CHECK (type IN ('CHECKING', 'SAVINGS')),
  routing_cipher           text NOT NULL,
  account_cipher           text NOT NULL,
  routing_last_four        text NOT NULL CHECK (routing_last_four ~ '^[0-9]{4}$'),
  account_last_four        text NOT NULL CHECK (account_last_four ~ '^[0-9]{4}$'),
  created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_bank_accounts_application ON application_bank_accounts (financing_application_id);

CREATE TABLE application_invites (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  email                    text NOT NULL,
  kyc_individual_id        uuid REFERENCES kyc_individuals (id),
  token_hash               text NOT NULL UNIQUE,
  expires_at               timestamptz NOT NULL,
  accepted_at              timestamptz,
  revoked_at               timestamptz,
  created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX application_invites_application ON application_invites (financing_application_id);

-- What operations ask the applicant for (a sanctions hit asks for an ID), planned.ts's
-- "operations document requests and uploaded files".
CREATE TABLE operations_document_requests (
  id                       uuid PRIMARY KEY,
  financing_application_id uuid NOT NULL REFERENCES financing_applications (id),
  doc_type                 text NOT NULL,
  note                     text NOT NULL,
  status                   text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'FULFILLED')),
  created_at               timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operations_document_requests_application ON operations_document_requests (financing_application_id);

-- businesses.kybKyc / issuingOnboarding (the Businesses calls assigned to issue 31): the last
-- screening of a business's owners and each further entity's KYB result.
ALTER TABLE businesses ADD COLUMN address jsonb, ADD COLUMN kyb_kyc jsonb;
ALTER TABLE business_entities ADD COLUMN address jsonb, ADD COLUMN issuing_onboarding jsonb;
