-- Reimbursements (issue 9 §3, first slice): a mirrored collection ('reimbursements'), written
-- through writeMirrored like every mirrored table (change_seq from the business counter,
-- tombstones instead of deletes). Amounts are integer minor units; mileage and per-diem amounts
-- are computed by the server from schema/reimbursement-rules.ts.

CREATE TABLE reimbursements (
  id                uuid PRIMARY KEY,
  business_id       uuid NOT NULL REFERENCES businesses (id),
  user_id           uuid NOT NULL REFERENCES spend_users (id),
  type              text NOT NULL CHECK (type IN ('OUT_OF_POCKET', 'MILEAGE', 'PER_DIEM')),
  status            text NOT NULL CHECK (status IN ('DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'PAID', 'CANCELED')),
  merchant          text,
  amount            bigint NOT NULL CHECK (amount > 0),
  currency          text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  transaction_date  date NOT NULL,
  memo              text,
  gl_account_id     uuid REFERENCES gl_accounts (id),
  department_id     uuid REFERENCES departments (id),
  distance_miles    numeric(7, 2) CHECK (distance_miles IS NULL OR (distance_miles > 0 AND distance_miles <= 2000)),
  start_location    text,
  end_location      text,
  trip_date         date,
  location          text,
  start_date        date,
  end_date          date CHECK (end_date IS NULL OR end_date >= start_date),
  rejection_reason  text,
  submitted_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  change_seq        bigint NOT NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted           boolean NOT NULL DEFAULT false
);
-- The change feed pages each business on change_seq.
CREATE INDEX reimbursements_feed ON reimbursements (business_id, change_seq);
-- The list: newest claim date first, keyset on (transaction_date, created_at, id).
CREATE INDEX reimbursements_list ON reimbursements (business_id, transaction_date DESC, created_at DESC, id DESC) WHERE NOT deleted;
-- Visibility filters on user_id (own, a manager's team).
CREATE INDEX reimbursements_user ON reimbursements (business_id, user_id);
