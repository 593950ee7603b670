-- Issue 11 §7 bill pay: recurring bill templates and the job's runs, vendor credits applied by
-- credit lines, and bill templates (saved vendor + lines + memo a new bill starts from). None of
-- them is mirrored; the bills the job makes are, through the ordinary bill write path.

-- A bill that repeats (schema/entities/recurring-bill.ts; period math schema/recurring-bills.ts).
-- `generate_from`: no period starting before it is billed (the start date; a resume or a schedule
-- change moves it to that day, so a paused stretch is skipped rather than billed all at once).
CREATE TABLE recurring_bill_templates (
  id                      uuid PRIMARY KEY,
  business_id             uuid NOT NULL REFERENCES businesses (id),
  vendor_id               uuid NOT NULL REFERENCES vendors (id),
  currency                text NOT NULL,
  line_items              jsonb NOT NULL,
  amount                  bigint NOT NULL CHECK (amount > 0),
  memo                    text,
  entity_id               uuid REFERENCES business_entities (id),
  interval                text NOT NULL CHECK (interval IN ('WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY')),
  day_of_month            smallint CHECK (day_of_month BETWEEN 1 AND 31),
  day_of_week             smallint CHECK (day_of_week BETWEEN 1 AND 7),
  start_date              date NOT NULL,
  end_date                date,
  max_occurrences         integer CHECK (max_occurrences > 0),
  generate_from           date NOT NULL,
  invoice_number_pattern  text NOT NULL,
  days_until_due          integer NOT NULL CHECK (days_until_due BETWEEN 0 AND 365),
  submit_for_approval     boolean NOT NULL DEFAULT false,
  status                  text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED')),
  last_error              text,
  created_by              uuid NOT NULL REFERENCES spend_users (id),
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now(),
  deleted                 boolean NOT NULL DEFAULT false
);
CREATE INDEX recurring_bill_templates_newest ON recurring_bill_templates (business_id, created_at DESC, id DESC) WHERE NOT deleted;
CREATE INDEX recurring_bill_templates_active ON recurring_bill_templates (id) WHERE status = 'ACTIVE' AND NOT deleted;

-- One row per (template, period) the job has handled: the primary key is what makes a period
-- billed exactly once, whatever runs the job (twice at once, two servers): the run row is
-- inserted ON CONFLICT DO NOTHING in the same transaction as the bill, so only one transaction
-- can hold it and a loser sees it taken. FAILED: the bill was refused (the error is kept and the
-- period is not retried). A deleted template keeps its runs and its bills.
CREATE TABLE recurring_bill_runs (
  template_id   uuid NOT NULL REFERENCES recurring_bill_templates (id),
  period_start  date NOT NULL,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  bill_id       uuid REFERENCES bills (id),
  status        text NOT NULL CHECK (status IN ('GENERATED', 'FAILED')),
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT recurring_bill_runs_once PRIMARY KEY (template_id, period_start)
);

-- A vendor's credit note (schema/entities/vendor-credit.ts). What is applied is derived from the
-- credit lines of live bills (not canceled, not deleted), so a cancel gives it back with no
-- bookkeeping; a write that applies it locks this row (FOR UPDATE) to check what remains.
CREATE TABLE vendor_credits (
  id                  uuid PRIMARY KEY,
  business_id         uuid NOT NULL REFERENCES businesses (id),
  vendor_id           uuid NOT NULL REFERENCES vendors (id),
  currency            text NOT NULL,
  amount              bigint NOT NULL CHECK (amount > 0),
  credit_note_number  text NOT NULL,
  credit_date         date NOT NULL,
  memo                text,
  created_by          uuid NOT NULL REFERENCES spend_users (id),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  deleted             boolean NOT NULL DEFAULT false
);
CREATE INDEX vendor_credits_newest ON vendor_credits (business_id, created_at DESC, id DESC) WHERE NOT deleted;

-- Credit lines point at their credit; only a credit line is negative (bill-rules.ts lineErrors).
ALTER TABLE bill_line_items ADD CONSTRAINT bill_line_items_vendor_credit_fk FOREIGN KEY (vendor_credit_id) REFERENCES vendor_credits (id);
ALTER TABLE bill_line_items ADD CONSTRAINT bill_line_items_credit_negative CHECK (vendor_credit_id IS NULL OR amount < 0);
CREATE INDEX bill_line_items_credit ON bill_line_items (vendor_credit_id) WHERE vendor_credit_id IS NOT NULL;

-- A saved bill the UI prefills a new one from: vendor, lines and memo (no dates, no number).
CREATE TABLE bill_templates (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL,
  vendor_id    uuid NOT NULL REFERENCES vendors (id),
  currency     text NOT NULL,
  line_items   jsonb NOT NULL,
  memo         text,
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX bill_templates_newest ON bill_templates (business_id, created_at DESC, id DESC) WHERE NOT deleted;
