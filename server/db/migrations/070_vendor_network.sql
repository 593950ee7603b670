-- Issue 31: the vendor network (docs/design/issue-31-surfaces.md §2.2). A network vendor is one
-- company that many payers pay; its admins sign in to the vendor portal (surface VENDOR_PORTAL).
-- Sensitive numbers are AES-256-GCM ciphertext (server/auth/vendor-bank-crypto.ts, AAD
-- `network_vendor:<id>:<field>`); only their last four digits are stored in the clear.
CREATE TABLE network_vendors (
  id                      uuid PRIMARY KEY,
  legal_name              text NOT NULL,
  email                   text NOT NULL,
  -- {line1, line2, city, state, postal_code, country}, as schema/entities/vendor.ts's address.
  address                 jsonb,
  address_verified_at     timestamptz,
  tin_type                text CHECK (tin_type IN ('EIN', 'SSN')),
  tin_cipher              text,
  tin_last_four           text,
  tin_verified_at         timestamptz,
  bank_type               text CHECK (bank_type IN ('CHECKING', 'SAVINGS')),
  bank_holder_name        text,
  bank_routing_cipher     text,
  bank_account_cipher     text,
  bank_routing_last_four  text,
  bank_account_last_four  text,
  bank_verified_at        timestamptz,
  -- USD wire details (lead's decision 3: separate from ACH).
  wire_bank_name          text,
  wire_routing_cipher     text,
  wire_account_cipher     text,
  wire_routing_last_four  text,
  wire_account_last_four  text,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  CHECK ((bank_type IS NULL) = (bank_account_cipher IS NULL)
     AND (bank_type IS NULL) = (bank_routing_cipher IS NULL)
     AND (bank_type IS NULL) = (bank_account_last_four IS NULL)
     AND (bank_type IS NULL) = (bank_routing_last_four IS NULL)),
  CHECK ((tin_type IS NULL) = (tin_cipher IS NULL) AND (tin_type IS NULL) = (tin_last_four IS NULL)),
  CHECK ((wire_routing_cipher IS NULL) = (wire_account_cipher IS NULL)
     AND (wire_routing_cipher IS NULL) = (wire_routing_last_four IS NULL)
     AND (wire_routing_cipher IS NULL) = (wire_account_last_four IS NULL))
);

-- Who administers a network vendor (the portal's membership: server/auth/surfaces/vendor.ts).
CREATE TABLE network_vendor_admins (
  network_vendor_id  uuid NOT NULL REFERENCES network_vendors (id),
  identity_id        uuid NOT NULL REFERENCES identities (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (network_vendor_id, identity_id)
);
CREATE INDEX network_vendor_admins_identity ON network_vendor_admins (identity_id);

-- A payer's vendor joined (or invited) to the network. `spend_user_id` is the hidden
-- VENDOR_NETWORK_ADMIN user created in the paying business when the vendor joins (ACTIVE at once).
CREATE TABLE network_vendor_links (
  id                  uuid PRIMARY KEY,
  vendor_id           uuid NOT NULL UNIQUE REFERENCES vendors (id),
  business_id         uuid NOT NULL REFERENCES businesses (id),
  network_vendor_id   uuid REFERENCES network_vendors (id),
  invited_email       text NOT NULL,
  invited_by          uuid NOT NULL REFERENCES spend_users (id),
  invite_token_hash   text NOT NULL UNIQUE,
  status              text NOT NULL DEFAULT 'INVITED' CHECK (status IN ('INVITED', 'ACTIVE', 'DECLINED')),
  invited_at          timestamptz NOT NULL DEFAULT now(),
  joined_at           timestamptz,
  spend_user_id       uuid REFERENCES spend_users (id),
  -- What the vendor itself filled in on the payer's vendor ("verified by vendor", D9).
  verified_at         timestamptz,
  verified_fields     text[] NOT NULL DEFAULT '{}',
  CHECK ((status = 'ACTIVE') = (network_vendor_id IS NOT NULL))
);
CREATE INDEX network_vendor_links_network ON network_vendor_links (network_vendor_id) WHERE network_vendor_id IS NOT NULL;
CREATE INDEX network_vendor_links_business ON network_vendor_links (business_id);

-- The vendor's documents (W-9 and the like). The bytes live here, not in `receipts` (whose rows
-- need a business and an uploading spend user; a network vendor has neither).
CREATE TABLE network_vendor_documents (
  id                 uuid PRIMARY KEY,
  network_vendor_id  uuid NOT NULL REFERENCES network_vendors (id),
  kind               text NOT NULL CHECK (kind IN ('W9', 'W8BEN', 'W8BENE', 'OTHER')),
  content_type       text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  size               integer NOT NULL CHECK (size > 0 AND size <= 10485760),
  sha256             text NOT NULL,
  bytes              bytea,
  uploaded_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  CHECK (deleted_at IS NOT NULL OR bytes IS NOT NULL)
);
ALTER TABLE network_vendor_documents ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE INDEX network_vendor_documents_vendor ON network_vendor_documents (network_vendor_id, uploaded_at DESC);

-- A payer that stopped seeing a vendor document (vendors.documents.delete).
CREATE TABLE network_vendor_document_hidden (
  document_id  uuid NOT NULL REFERENCES network_vendor_documents (id),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  hidden_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, business_id)
);

-- A change the vendor made to a value its payer already holds (D9): the payer accepts or rejects.
-- `fields` holds only masked values (last fours, address, names): never a cipher.
CREATE TABLE vendor_edit_proposals (
  id                 uuid PRIMARY KEY,
  network_vendor_id  uuid NOT NULL REFERENCES network_vendors (id),
  vendor_id          uuid NOT NULL REFERENCES vendors (id),
  business_id        uuid NOT NULL REFERENCES businesses (id),
  fields             jsonb NOT NULL,
  status             text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'ACCEPTED', 'REJECTED', 'WITHDRAWN')),
  hidden             boolean NOT NULL DEFAULT false,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  decided_by         uuid REFERENCES spend_users (id),
  decided_at         timestamptz
);
CREATE UNIQUE INDEX vendor_edit_proposals_one_pending ON vendor_edit_proposals (vendor_id) WHERE status = 'PENDING';
CREATE INDEX vendor_edit_proposals_network ON vendor_edit_proposals (network_vendor_id, created_at DESC);
CREATE INDEX vendor_edit_proposals_business ON vendor_edit_proposals (business_id, created_at DESC);

-- The payer's vendor may hold a TIN (copied from the network vendor, re-encrypted with AAD vendor:<id>:tin).
ALTER TABLE vendors
  ADD COLUMN tin_type text CHECK (tin_type IN ('EIN', 'SSN')),
  ADD COLUMN tin_cipher text,
  ADD COLUMN tin_last_four text;

-- vendors.network.failureReminder: once per failed payment.
CREATE TABLE network_failure_reminders (
  bill_payment_id  uuid PRIMARY KEY REFERENCES bill_payments (id),
  business_id      uuid NOT NULL REFERENCES businesses (id),
  vendor_id        uuid NOT NULL REFERENCES vendors (id),
  reminded_by      uuid NOT NULL REFERENCES spend_users (id),
  reminded_at      timestamptz NOT NULL DEFAULT now()
);
