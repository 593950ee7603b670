-- Issue 11 §7 bill pay: vendors' invoices the business pays (schema/entities/bill.ts; rules in
-- schema/bill-rules.ts). Bills carry a change seq and tombstones like every mirrored table, so
-- the mirror can follow them once the collection is registered.
CREATE TABLE bills (
  id                      uuid PRIMARY KEY,
  business_id             uuid NOT NULL REFERENCES businesses (id),
  vendor_id               uuid NOT NULL REFERENCES vendors (id),
  invoice_number          text NOT NULL,
  -- invoiceNumberKey(invoice_number) (NFKC, no whitespace, upper case): duplicate lookups
  -- compare this, computed in TypeScript so the server and the offline worker agree.
  invoice_key             text NOT NULL,
  invoice_date            date NOT NULL,
  due_date                date NOT NULL,
  payment_date            date,
  currency                text NOT NULL,
  -- The lines' sum (credit lines netted), minor units.
  amount                  bigint NOT NULL CHECK (amount > 0),
  status                  text NOT NULL CHECK (status IN ('DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID',
                            'RECONCILED', 'REJECTED', 'CANCELED', 'PAYMENT_FAILED')),
  memo                    text,
  entity_id               uuid REFERENCES business_entities (id),
  invoice_file_id         uuid,
  created_by              uuid NOT NULL REFERENCES spend_users (id),
  submitted_at            timestamptz,
  approved_by             uuid REFERENCES spend_users (id),
  approved_at             timestamptz,
  rejection_reason        text,
  -- Payment attempts made so far; attempt n is keyed paymentKey(id, n) in bill_payments.
  payment_attempt         integer NOT NULL DEFAULT 0 CHECK (payment_attempt >= 0),
  payment_failure_reason  text,
  paid_at                 timestamptz,
  paid_manually           boolean NOT NULL DEFAULT false,
  reconciled_at           timestamptz,
  change_seq              bigint NOT NULL,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  deleted                 boolean NOT NULL DEFAULT false,
  CHECK (due_date >= invoice_date)
);
CREATE INDEX bills_feed ON bills (business_id, change_seq);
CREATE INDEX bills_newest ON bills (business_id, created_at DESC, id DESC) WHERE NOT deleted;
CREATE INDEX bills_invoice ON bills (business_id, vendor_id, invoice_key) WHERE NOT deleted;

-- A bill's lines, replaced whole by a patch; `position` keeps the invoice's order.
CREATE TABLE bill_line_items (
  id               uuid PRIMARY KEY,
  bill_id          uuid NOT NULL REFERENCES bills (id),
  position         integer NOT NULL,
  description      text NOT NULL,
  amount           bigint NOT NULL,
  gl_account_id    uuid,
  department_id    uuid,
  location_id      uuid,
  tracking         jsonb NOT NULL DEFAULT '{}',
  vendor_credit_id uuid,
  UNIQUE (bill_id, position)
);

-- Payment attempts (server-only, never mirrored). Money moves once per bill even across API
-- processes: an attempt is written once (bill_id, attempt; its key paymentKey(bill, attempt)),
-- and at most one attempt per bill may be live (PENDING or SETTLED) — a second one violates
-- bill_payments_one_live whatever the code above it does.
CREATE TABLE bill_payments (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  bill_id      uuid NOT NULL REFERENCES bills (id),
  attempt      integer NOT NULL CHECK (attempt >= 1),
  payment_key  text NOT NULL UNIQUE,
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL,
  status       text NOT NULL CHECK (status IN ('PENDING', 'SETTLED', 'FAILED', 'REVERSED')),
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (bill_id, attempt)
);
CREATE UNIQUE INDEX bill_payments_one_live ON bill_payments (bill_id) WHERE status IN ('PENDING', 'SETTLED');
CREATE INDEX bill_payments_business ON bill_payments (business_id, bill_id, created_at);
