-- Issue 11: vendors (payees), mirrored reference data (schema/entities/vendor.ts). The bank
-- account numbers are AES-256-GCM ciphertext (server/auth/vendor-bank-crypto.ts), bound to the
-- vendor and the field they belong to; only their last four digits are stored in the clear, for
-- the masked doc every member sees.
CREATE TABLE vendors (
  id                      uuid PRIMARY KEY,
  business_id             uuid NOT NULL REFERENCES businesses (id),
  name                    text NOT NULL,
  email                   text,
  phone                   text,
  -- {line1, line2, city, state, postal_code, country}, as schema/entities/vendor.ts's address.
  address                 jsonb,
  default_gl_account_id   uuid,
  default_department_id   uuid,
  status                  text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'ARCHIVED')),
  bank_account_type       text CHECK (bank_account_type IN ('CHECKING', 'SAVINGS')),
  bank_routing_cipher     text,
  bank_account_cipher     text,
  bank_routing_last_four  text,
  bank_account_last_four  text,
  -- A merged payee's survivor (the merged row is a tombstone), so a later reference can follow it.
  merged_into_id          uuid REFERENCES vendors (id),
  change_seq              bigint NOT NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  deleted                 boolean NOT NULL DEFAULT false,
  -- All five bank columns are set together or not at all.
  CHECK ((bank_account_type IS NULL) = (bank_account_cipher IS NULL)
     AND (bank_account_type IS NULL) = (bank_routing_cipher IS NULL)
     AND (bank_account_type IS NULL) = (bank_account_last_four IS NULL)
     AND (bank_account_type IS NULL) = (bank_routing_last_four IS NULL))
);
CREATE INDEX vendors_feed ON vendors (business_id, change_seq);
-- One live vendor of a name per business (trimmed, case-insensitive: vendorNameKey), so a bulk
-- upload sent twice cannot create twins.
CREATE UNIQUE INDEX vendors_name_key ON vendors (business_id, lower(btrim(name))) WHERE NOT deleted;

-- A vendor's contacts: rows of their own (each edited or removed by id), sent inside the vendor
-- doc. A contact change stamps its vendor with a new seq, so the mirror follows.
CREATE TABLE vendor_contacts (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  vendor_id    uuid NOT NULL REFERENCES vendors (id),
  name         text NOT NULL,
  email        text,
  phone        text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vendor_contacts_vendor ON vendor_contacts (vendor_id, created_at);
