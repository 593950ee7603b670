-- Issue 30: linked bank accounts are mirrored (reference data `bank_accounts` in `refs`, admins
-- only: schema/entities/bank-account.ts), so the bank pages and the transfer form read them offline
-- after a reload. Like every mirrored table: a change_seq per write and tombstones (the `deleted`
-- column already there; a deleted row leaves the feed as deleted=true and mirrors drop it).
--
-- Existing accounts, live and deleted, take fresh seqs from their business's counter in creation
-- order (as 022 and 024 did), so mirrors pick them up.
ALTER TABLE bank_accounts ADD COLUMN change_seq bigint;

WITH counts AS (
  SELECT business_id, count(*) AS n FROM bank_accounts GROUP BY business_id
), bumped AS (
  UPDATE businesses b SET change_seq = b.change_seq + counts.n FROM counts WHERE b.id = counts.business_id
  RETURNING b.id, b.change_seq AS last, counts.n
), numbered AS (
  SELECT a.id, a.business_id, row_number() OVER (PARTITION BY a.business_id ORDER BY a.created_at, a.id) AS i FROM bank_accounts a
)
UPDATE bank_accounts a SET change_seq = bumped.last - bumped.n + numbered.i
  FROM numbered JOIN bumped ON bumped.id = numbered.business_id
 WHERE a.id = numbered.id;

ALTER TABLE bank_accounts ALTER COLUMN change_seq SET NOT NULL;
CREATE INDEX bank_accounts_feed ON bank_accounts (business_id, change_seq);

-- Every write of a bank account (link, rename or new numbers, debit check start and answers, the
-- tombstone, and whatever writes it later) takes a fresh seq from the business counter, in the
-- write's transaction, announced on the changes channel (delivered on commit only), as 058's
-- ll_ledger_account_guard does for wallet balances: no writer can forget it. A writer that stamps
-- the row itself (an explicit change_seq: writeMirrored's seqs, the seed's renumbering) keeps its own.
--
-- Lock order: the counter's UPDATE locks the business row. The banking writers take the business
-- row before they lock the account (server/domain/banking/bank-accounts.ts findBankAccount
-- 'write'), the order every mirrored writer follows, so this UPDATE never waits while holding
-- the account for a writer that holds the business and waits for the account.
CREATE FUNCTION ll_bank_account_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seq bigint;
BEGIN
  IF TG_OP = 'INSERT' AND NEW.change_seq IS NOT NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.change_seq IS DISTINCT FROM OLD.change_seq THEN
    RETURN NEW;
  END IF;
  UPDATE businesses SET change_seq = change_seq + 1 WHERE id = NEW.business_id RETURNING change_seq INTO seq;
  NEW.change_seq := seq;
  PERFORM pg_notify('ledgerline_changes', json_build_object('business_id', NEW.business_id, 'seq', seq)::text);
  RETURN NEW;
END $$;
CREATE TRIGGER bank_accounts_stamp BEFORE INSERT OR UPDATE ON bank_accounts FOR EACH ROW EXECUTE FUNCTION ll_bank_account_stamp();
