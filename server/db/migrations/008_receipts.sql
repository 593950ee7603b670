-- Receipts (issue 9 §2, server side): files stored as bytea, content-addressed per business
-- (one row per (business_id, sha256); concurrent uploads of the same bytes meet on the unique
-- index). Not mirrored: no change_seq, the transaction wire doc is untouched.

CREATE TABLE receipts (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  -- The first uploader; everyone who uploaded the bytes is in receipt_uploads.
  user_id       uuid NOT NULL REFERENCES spend_users (id),
  content_type  text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/heic', 'image/webp', 'application/pdf')),
  size          integer NOT NULL CHECK (size > 0 AND size <= 10485760),
  sha256        text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- NULL once deleted: a deleted receipt keeps its row (the id stays unique) but not its file.
  bytes         bytea,
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted       boolean NOT NULL DEFAULT false,
  UNIQUE (business_id, sha256),
  CHECK (deleted OR bytes IS NOT NULL)
);
-- bytea is TOASTed; keep it uncompressed (JPEG, PNG, HEIC, WEBP and most PDFs are compressed already).
ALTER TABLE receipts ALTER COLUMN bytes SET STORAGE EXTERNAL;

-- Who uploaded the bytes (visibility follows every uploader, as the `owner` rule follows user_id).
CREATE TABLE receipt_uploads (
  receipt_id   uuid NOT NULL REFERENCES receipts (id),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  user_id      uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (receipt_id, user_id)
);
CREATE INDEX receipt_uploads_user ON receipt_uploads (business_id, user_id);

CREATE TABLE transaction_receipts (
  transaction_id  uuid NOT NULL REFERENCES transactions (id),
  receipt_id      uuid NOT NULL REFERENCES receipts (id),
  business_id     uuid NOT NULL REFERENCES businesses (id),
  attached_by     uuid NOT NULL REFERENCES spend_users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transaction_id, receipt_id)
);
CREATE INDEX transaction_receipts_receipt ON transaction_receipts (receipt_id);
