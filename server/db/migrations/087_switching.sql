-- Switching (spec §7 Vendors "switching/vendors/{vendor}", SWITCHING_7002; schema/switching.ts):
-- the card statements an admin uploads from the card the business leaves, their charges (one row
-- per charge however many statements repeat it), and the vendors found in them.
CREATE TABLE switching_imports (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  file_name    text NOT NULL,
  currency     text NOT NULL,
  charges      int NOT NULL,
  duplicates   int NOT NULL,
  credits      int NOT NULL,
  unreadable   int NOT NULL,
  problems     jsonb NOT NULL DEFAULT '[]',
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL,
  -- Upload order (two uploads in one instant still list newest first).
  n            bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX switching_imports_business ON switching_imports (business_id, created_at DESC, n DESC);

-- A charge is its vendor, day, amount and its ordinal among identical charges in one file: the
-- second 9.99 to the same vendor on the same day is a second charge, the same one in an
-- overlapping statement is not.
CREATE TABLE switching_charges (
  business_id   uuid NOT NULL REFERENCES businesses (id),
  merchant_key  text NOT NULL,
  currency      text NOT NULL,
  charged_on    date NOT NULL,
  amount        bigint NOT NULL CHECK (amount > 0),
  occurrence    int NOT NULL CHECK (occurrence >= 1),
  description   text NOT NULL,
  import_id     uuid NOT NULL REFERENCES switching_imports (id),
  PRIMARY KEY (business_id, merchant_key, currency, charged_on, amount, occurrence)
);

CREATE TABLE switching_vendors (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  merchant_key  text NOT NULL,
  currency      text NOT NULL,
  name          text NOT NULL,
  -- The card it moved to: one vendor, one card, and a card serves one vendor.
  card_id       uuid UNIQUE REFERENCES cards (id),
  switched_by   uuid REFERENCES spend_users (id),
  switched_at   timestamptz,
  dismissed_by  uuid REFERENCES spend_users (id),
  dismissed_at  timestamptz,
  created_at    timestamptz NOT NULL,
  UNIQUE (business_id, merchant_key, currency),
  CHECK ((card_id IS NULL) = (switched_at IS NULL))
);
