-- Issue 30, flex (float) financing of bills (server/domain/flex/).
--
-- A business onboards once (flex_settings ACTIVE, a credit limit, its FLEX_LINE ledger account).
-- An approved, unpaid USD bill within the line's available amount gets an offer (terms 30/60/90
-- days, each with its fee and installment schedule; open 24 h; a new offer for the bill expires
-- the previous open one). Accepting one term pays the vendor from the flex line at once (ledger
-- entry FLEX_DRAW, FLEX_LINE → VENDOR_PAYMENTS, key `flex:<record>:draw`), records the bill's
-- payment as a SETTLED attempt whose method is FLEX, and schedules the installments, which the
-- installment job collects from the primary OPERATING account on their due dates (FLEX_INSTALLMENT,
-- key `flex-installment:<id>:<attempt>`). The line's used amount is what the ledger says it is:
-- minus the FLEX_LINE account's balance (principal drawn and not yet repaid).
--
-- Exactly once, whatever the code does: one accepted offer per record (UNIQUE offer_id), one open
-- and one accepted offer per bill (partial unique indexes), one record per bill while it is not
-- reversed (UNIQUE bill_id), one installment per (record, number), and the ledger's entry keys.

CREATE TABLE flex_settings (
  business_id         uuid PRIMARY KEY REFERENCES businesses (id),
  status              text NOT NULL DEFAULT 'NOT_ONBOARDED' CHECK (status IN ('NOT_ONBOARDED', 'ACTIVE')),
  -- The credit limit in minor units of `currency` (the demo's: 250,000.00 USD).
  limit_amount        bigint NOT NULL DEFAULT 25000000 CHECK (limit_amount >= 0),
  currency            text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  -- §6: AP clerks may pay bills with flex when the business allows it (schema/roles.ts canUseFlexBills).
  ap_clerks_can_flex  boolean NOT NULL DEFAULT false,
  line_account_id     uuid,
  onboarded_at        timestamptz,
  onboarded_by        uuid REFERENCES spend_users (id),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'ACTIVE') = (onboarded_at IS NOT NULL)),
  CHECK ((status = 'ACTIVE') = (line_account_id IS NOT NULL)),
  FOREIGN KEY (business_id, line_account_id) REFERENCES ledger_accounts (business_id, id)
);

CREATE TABLE flex_offers (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  bill_id      uuid NOT NULL REFERENCES bills (id),
  amount       bigint NOT NULL CHECK (amount > 0),
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- [{term_days, fee, installments: [{due_date, principal, fee}]}] (server/domain/flex/terms.ts).
  terms        jsonb NOT NULL,
  -- OPEN until accepted, replaced by a newer offer, or past expires_at (read as EXPIRED).
  status       text NOT NULL CHECK (status IN ('OPEN', 'ACCEPTED', 'EXPIRED')),
  expires_at   timestamptz NOT NULL,
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  accepted_at  timestamptz,
  CHECK ((status = 'ACCEPTED') = (accepted_at IS NOT NULL)),
  UNIQUE (business_id, id)
);
CREATE UNIQUE INDEX flex_offers_one_open ON flex_offers (bill_id) WHERE status = 'OPEN';
CREATE UNIQUE INDEX flex_offers_one_accepted ON flex_offers (bill_id) WHERE status = 'ACCEPTED';
CREATE INDEX flex_offers_business ON flex_offers (business_id, created_at);

CREATE TABLE flex_records (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id),
  bill_id          uuid NOT NULL UNIQUE REFERENCES bills (id),
  offer_id         uuid NOT NULL UNIQUE,
  bill_payment_id  uuid NOT NULL UNIQUE REFERENCES bill_payments (id),
  amount           bigint NOT NULL CHECK (amount > 0),
  fee              bigint NOT NULL CHECK (fee >= 0),
  currency         text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  term_days        integer NOT NULL CHECK (term_days IN (30, 60, 90)),
  status           text NOT NULL CHECK (status IN ('ACTIVE', 'REPAID')),
  accepted_by      uuid NOT NULL REFERENCES spend_users (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  repaid_at        timestamptz,
  CHECK ((status = 'REPAID') = (repaid_at IS NOT NULL)),
  FOREIGN KEY (business_id, offer_id) REFERENCES flex_offers (business_id, id),
  UNIQUE (business_id, id)
);
CREATE INDEX flex_records_business ON flex_records (business_id, created_at DESC, id DESC);

CREATE TABLE flex_installments (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  record_id       uuid NOT NULL,
  number          integer NOT NULL CHECK (number BETWEEN 1 AND 3),
  due_date        date NOT NULL,
  -- The installment's share of the principal (back to FLEX_LINE) and of the fee (to FEES).
  principal       bigint NOT NULL CHECK (principal > 0),
  fee             bigint NOT NULL CHECK (fee >= 0),
  status          text NOT NULL CHECK (status IN ('SCHEDULED', 'PAID', 'FAILED')),
  -- Collections tried so far; attempt n posts with key flex-installment:<id>:<n>.
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  paid_at         timestamptz,
  failure_reason  text,
  entry_id        uuid,
  CHECK ((status = 'PAID') = (paid_at IS NOT NULL AND entry_id IS NOT NULL)),
  CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL)),
  FOREIGN KEY (business_id, record_id) REFERENCES flex_records (business_id, id),
  UNIQUE (record_id, number)
);
CREATE INDEX flex_installments_due ON flex_installments (due_date) WHERE status = 'SCHEDULED';

-- A bill payment's rail: ACH (pay-now, the settlement job) or FLEX (paid from the flex line).
ALTER TABLE bill_payments ADD COLUMN method text NOT NULL DEFAULT 'ACH' CHECK (method IN ('ACH', 'FLEX'));

-- The vendor was paid from the flex line and the business repays the line: a flex payment is
-- never reversed back to an unpaid bill (that would let the bill be paid twice).
CREATE FUNCTION ll_flex_payment_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.method = 'FLEX' AND NEW.status IS DISTINCT FROM OLD.status THEN
    RAISE EXCEPTION 'a bill paid with flex keeps its payment'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'bill_payments_flex_fixed';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER bill_payments_flex_fixed BEFORE UPDATE ON bill_payments FOR EACH ROW EXECUTE FUNCTION ll_flex_payment_fixed();
