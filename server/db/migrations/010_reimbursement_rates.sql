-- Issue 9 §3: a business's reimbursement rates (schema/entities/reimbursement-rate.ts), mirrored
-- reference data. PER_DIEM: a per-diem location (name, daily rate in minor units of currency).
-- MILEAGE: the business's own mileage rate for a trip year, in mills (0.1 cent) per mile, USD.
CREATE TABLE reimbursement_rates (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  kind         text NOT NULL CHECK (kind IN ('PER_DIEM', 'MILEAGE')),
  name         text,
  year         integer,
  rate         integer NOT NULL CHECK (rate > 0),
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false,
  CHECK (kind <> 'PER_DIEM' OR (name IS NOT NULL AND year IS NULL)),
  CHECK (kind <> 'MILEAGE' OR (name IS NULL AND year IS NOT NULL AND currency = 'USD'))
);
CREATE INDEX reimbursement_rates_feed ON reimbursement_rates (business_id, change_seq);
-- One live location of a name (case-insensitively, trimmed as the rules compare) and one live
-- override per year, per business.
CREATE UNIQUE INDEX reimbursement_rates_location_key ON reimbursement_rates (business_id, lower(btrim(name)))
  WHERE kind = 'PER_DIEM' AND NOT deleted;
CREATE UNIQUE INDEX reimbursement_rates_year_key ON reimbursement_rates (business_id, year)
  WHERE kind = 'MILEAGE' AND NOT deleted;
