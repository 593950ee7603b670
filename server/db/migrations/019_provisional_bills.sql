-- Issue 11: provisional bills, uploaded invoices not yet completed into bills
-- (schema/entities/provisional-bill.ts; server/domain/provisional-bills.ts). Mirrored to bill
-- managers (the bill_pay rule, as bills) with change seqs and tombstones; completing one into a
-- bill, deleting it, or "delete all" leaves a tombstone the feed carries.
CREATE TABLE provisional_bills (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id),
  invoice_file_id  uuid NOT NULL REFERENCES receipts (id),
  vendor_id        uuid REFERENCES vendors (id),
  invoice_number   text,
  invoice_date     date,
  due_date         date,
  currency         text,
  amount           bigint CHECK (amount > 0),
  memo             text,
  created_by       uuid NOT NULL REFERENCES spend_users (id),
  change_seq       bigint NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted          boolean NOT NULL DEFAULT false
);
CREATE INDEX provisional_bills_feed ON provisional_bills (business_id, change_seq);
CREATE INDEX provisional_bills_newest ON provisional_bills (business_id, created_at DESC, id DESC) WHERE NOT deleted;
