-- Issue 30, spec §7 "Bill pay": a payment attempt's rail (schema/payment-rails.ts). ACH (every
-- attempt before this migration), CHECK (printed, mailed, cleared 5–7 bank business days later)
-- or WIRE (same bank business day, with a fee). `method` (063) says where the money came from
-- (the operating account, or the flex line); `rail` says how it reached the vendor.
ALTER TABLE bill_payments ADD COLUMN rail text NOT NULL DEFAULT 'ACH' CHECK (rail IN ('ACH', 'CHECK', 'WIRE'));

-- A check: its number (per business, from check_number_counters, never reused: two checks of one
-- business never share a number whatever the code does), when it was mailed, when it cleared and,
-- if it was voided before clearing, when.
ALTER TABLE bill_payments ADD COLUMN check_number integer CHECK (check_number > 0);
ALTER TABLE bill_payments ADD COLUMN mailed_at timestamptz;
ALTER TABLE bill_payments ADD COLUMN cleared_at timestamptz;
ALTER TABLE bill_payments ADD COLUMN voided_at timestamptz;
CREATE UNIQUE INDEX bill_payments_check_number ON bill_payments (business_id, check_number) WHERE check_number IS NOT NULL;

-- A wire: its UETR (the SWIFT gpi end-to-end reference, block 3 {121:} of the MT103; unique
-- everywhere by definition) and the fee the payer paid (FEES, posted with the send).
ALTER TABLE bill_payments ADD COLUMN uetr uuid UNIQUE;
ALTER TABLE bill_payments ADD COLUMN wire_fee bigint CHECK (wire_fee >= 0);

ALTER TABLE bill_payments ADD CONSTRAINT bill_payments_rail_fields CHECK (
  ((rail = 'CHECK') = (check_number IS NOT NULL))
  AND ((rail = 'WIRE') = (uetr IS NOT NULL))
  AND ((rail = 'WIRE') = (wire_fee IS NOT NULL))
  AND (rail = 'CHECK' OR (mailed_at IS NULL AND cleared_at IS NULL AND voided_at IS NULL))
);

-- The last check number each business wrote; the next is last + 1 (FIRST_CHECK_NUMBER when none).
-- Taking it updates this row, so two payments racing serialise on it for the length of their
-- transaction; a rolled-back payment leaves a gap, as a spoiled check does in a checkbook.
CREATE TABLE check_number_counters (
  business_id  uuid PRIMARY KEY REFERENCES businesses (id),
  last_number  integer NOT NULL CHECK (last_number > 0)
);

-- The rail a scheduled (or approval-waiting) bill will be sent on when its day comes; null: the
-- vendor's default rail (schema/payment-rails.ts defaultRail) at send time. Server-only: not in
-- the bill's wire doc.
ALTER TABLE bills ADD COLUMN payment_rail text CHECK (payment_rail IN ('ACH', 'CHECK', 'WIRE'));
