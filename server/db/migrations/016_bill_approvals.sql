-- Issue 11: bills are decided through approval chains, and approvers can be reminded.

-- An approval may review a bill (the chain's last approval moves it PENDING_APPROVAL → APPROVED).
ALTER TABLE approvals DROP CONSTRAINT approvals_object_type_check;
ALTER TABLE approvals ADD CONSTRAINT approvals_object_type_check CHECK (object_type IN ('reimbursement', 'card_request', 'bill'));

-- remind-next-approvers (server-only): one row per approver reminded of an open approval. The
-- mail itself goes through sendMail; these rows are what stops a second reminder to the same
-- approver of the same approval within the hour (domain/bill-reminders.ts).
CREATE TABLE approval_reminders (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  approval_id  uuid NOT NULL REFERENCES approvals (id),
  approver_id  uuid NOT NULL REFERENCES spend_users (id),
  reminded_by  uuid NOT NULL REFERENCES spend_users (id),
  reminded_at  timestamptz NOT NULL
);
CREATE INDEX approval_reminders_recent ON approval_reminders (approval_id, approver_id, reminded_at DESC);
