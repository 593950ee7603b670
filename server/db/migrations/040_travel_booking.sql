-- Issue 27, booking: an out-of-policy booking waits in the approvals inbox (object_type
-- 'travel_booking') under the business's `travel` approval policy (default: the traveller's
-- manager). Booking's tables themselves are 038's.

ALTER TABLE approvals DROP CONSTRAINT approvals_object_type_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_object_type_check
  CHECK (object_type IN ('reimbursement', 'card_request', 'bill', 'travel_booking'));

ALTER TABLE approval_policies DROP CONSTRAINT approval_policies_object_type_check;
ALTER TABLE approval_policies ADD CONSTRAINT approval_policies_object_type_check
  CHECK (object_type IN ('bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee', 'travel'));

ALTER TABLE approval_instances DROP CONSTRAINT approval_instances_object_type_check;
ALTER TABLE approval_instances ADD CONSTRAINT approval_instances_object_type_check
  CHECK (object_type IN ('bill', 'card', 'reimbursement', 'spend_request', 'vendor-payment', 'payee', 'travel'));

-- A searcher's live offers (the booking looks one up by id; this serves the sweep of a user's expired ones).
CREATE INDEX travel_offers_user ON travel_offers (business_id, user_id, expires_at);
