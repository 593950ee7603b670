-- Issue 30 (every money movement exactly once): a bill paid with a company card.
--
-- Someone pays a vendor's invoice with their card; the card charge already moves the money (the
-- card settlement job, 059, settles CLEARED card spend OPERATING → CARD_NETWORK). Closing the bill
-- against that charge (POST /bill-pay/:bill_uuid/paid-by-card, server/domain/bill-card-match.ts)
-- makes it PAID and links it here, so the vendor is never paid a second time by Bill pay, and
-- posts nothing in the ledger.
--
-- Exactly once, whatever the code does: a charge closes at most one bill of its business (the
-- unique index; NULLs, the bills not paid by card, never collide), and only a paid bill carries
-- a charge (undo and reverse clear it on the way back to APPROVED).
ALTER TABLE bills ADD COLUMN paid_by_transaction_id uuid REFERENCES transactions (id);
CREATE UNIQUE INDEX bills_paid_by_transaction ON bills (business_id, paid_by_transaction_id);
ALTER TABLE bills ADD CONSTRAINT bills_paid_by_card_is_paid
  CHECK (paid_by_transaction_id IS NULL OR status IN ('PAID', 'RECONCILED'));
-- The suggestions (GET pay-by-card-matching) look charges up by a bill's exact currency and amount,
-- then its date window: an index lookup per open bill instead of a scan of the business's spend.
CREATE INDEX transactions_business_amount ON transactions (business_id, currency, amount, occurred_at) WHERE NOT deleted;
