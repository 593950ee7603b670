-- Issue 25: money only moves where it can, and settles on its settlement date.
--
-- A vendor's bank account is *verified* when the server validated its details as it stored them
-- (schema/vendor-rules.ts `bankAccountVerification`: ABA checksum, a Federal Reserve routing
-- prefix that ACH delivers to, an account number of 4-17 digits that is not all zeros);
-- bank_verified_at records when. Only a verified account is paid (bills in USD, by ACH).
ALTER TABLE vendors ADD COLUMN bank_verified_at timestamptz;
-- Accounts stored before this migration passed the checksum and account rules of the call that
-- stored them (the same call, the same validation); they count as verified from their last change.
UPDATE vendors SET bank_verified_at = updated_at WHERE bank_account_type IS NOT NULL;
ALTER TABLE vendors ADD CONSTRAINT vendors_bank_verified_has_account
  CHECK (bank_verified_at IS NULL OR bank_account_type IS NOT NULL);

-- A payment attempt is sent PENDING and settles on its bank business day (settles_on), when the
-- settlement job (server/domain/bill-settlement.ts) makes it SETTLED and the bill PAID.
ALTER TABLE bill_payments ADD COLUMN settles_on date;
ALTER TABLE bill_payments ADD COLUMN settled_at timestamptz;
UPDATE bill_payments SET settles_on = created_at::date, settled_at = updated_at WHERE status = 'SETTLED';
ALTER TABLE bill_payments ADD CONSTRAINT bill_payments_pending_settles
  CHECK (status <> 'PENDING' OR settles_on IS NOT NULL);
CREATE INDEX bill_payments_due ON bill_payments (settles_on, business_id) WHERE status = 'PENDING';
-- Scheduled bills whose payment date has come are sent by the same job.
CREATE INDEX bills_scheduled_due ON bills (payment_date, business_id) WHERE status = 'SCHEDULED' AND NOT deleted;
