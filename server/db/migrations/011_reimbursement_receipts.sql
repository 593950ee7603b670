-- Receipts on reimbursement claims (issue 9): the claim's receipt ids, oldest first, in the row
-- itself (the command's `apply` sets the whole list; the wire doc carries it as `receipt_ids`).
-- Deleting a receipt removes it from every claim (server/domain/receipts.ts). The GIN index
-- answers "claims this receipt is on" (receipt read access for the claim's approvers).
ALTER TABLE reimbursements ADD COLUMN receipt_ids uuid[] NOT NULL DEFAULT '{}'
  CHECK (cardinality(receipt_ids) <= 20);
CREATE INDEX reimbursements_receipt_ids ON reimbursements USING gin (receipt_ids);
