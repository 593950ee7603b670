-- Issue 28 (the rest), vendor-payment and payee approval policies. Once an admin saves a
-- `vendor-payment` policy (version >= 1), paying or scheduling an APPROVED bill does not move money:
-- it starts an approval (object_type 'vendor-payment', object_id = the bill) and the bill records
-- the requested payment in `payment_approval`; the last approval pays it. Once a `payee` policy is
-- saved, a new vendor or a vendor's new bank account waits for an approval (object_type 'payee',
-- object_id = the vendor), recorded in `vendors.payee_approval`; no bill of that vendor is paid
-- meanwhile. Both columns are null when nothing waits (every business that never saved a policy).
ALTER TABLE approvals DROP CONSTRAINT approvals_object_type_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_object_type_check
  CHECK (object_type IN ('reimbursement', 'card_request', 'bill', 'travel_booking', 'spend_request', 'vendor-payment', 'payee'));

-- {status: PENDING|REJECTED, method: PAY_NOW|SCHEDULE, pay_on, requested_by, requested_at, reason, decided_by}
-- (schema/entities/bill.ts billPaymentApprovalSchema).
ALTER TABLE bills ADD COLUMN payment_approval jsonb
  CHECK (payment_approval IS NULL OR jsonb_typeof(payment_approval) = 'object');

-- {status: PENDING|REJECTED, change: NEW_VENDOR|BANK_ACCOUNT, requested_by, requested_at, reason, decided_by}
-- (schema/entities/vendor.ts payeeApprovalSchema).
ALTER TABLE vendors ADD COLUMN payee_approval jsonb
  CHECK (payee_approval IS NULL OR jsonb_typeof(payee_approval) = 'object');
