-- Issue 28: a spend allocation's mirrored doc carries `spent`, `left` and `card_ids`
-- (schema/entities/spend-allocation.ts), computed from its cards and their transactions when the
-- doc is built. The feed sends a doc only when its row's change_seq moves, so whatever changes
-- those (a card of the allocation spends, a charge settles, is reversed or deleted, a card joins
-- the allocation, leaves it or is terminated) must re-stamp the allocation, or every mirror keeps
-- showing the old "left". These triggers do it in the writer's transaction, as migration 042 does
-- for trips.
--
-- Seqs: the fresh one comes from the business counter exactly as allocateSeqs takes it
-- (server/db/change-seq.ts). Writers of mirrored rows reserve their own seqs first, so the
-- business row's lock is already held and the lock order (business, then rows) is unchanged; the
-- allocation's seq is unique and above the writer's. The trigger announces it on the changes
-- channel itself (delivered on commit only).
--
-- Transactions: inserts are handled per statement over the inserted rows (the seed's bulk
-- inserts cost one join against the few cards that have an allocation: cards_allocation is
-- partial), one seq per allocation touched; updates per row, only when a column the sum reads
-- changed, so bulk coding never calls the function.
CREATE FUNCTION ll_restamp_allocation(business uuid, allocation uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  seq bigint;
BEGIN
  IF allocation IS NULL OR NOT EXISTS (
    SELECT 1 FROM spend_allocations a WHERE a.business_id = business AND a.id = allocation AND NOT a.deleted
  ) THEN
    RETURN;
  END IF;
  UPDATE businesses SET change_seq = change_seq + 1 WHERE id = business RETURNING change_seq INTO seq;
  UPDATE spend_allocations SET change_seq = seq, updated_at = now() WHERE business_id = business AND id = allocation;
  PERFORM pg_notify('ledgerline_changes', json_build_object('business_id', business, 'seq', seq)::text);
END $$;

CREATE FUNCTION ll_restamp_allocations_of_inserted_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched record;
BEGIN
  FOR touched IN
    SELECT DISTINCT c.business_id, c.spend_allocation_id AS id
      FROM inserted n JOIN cards c ON c.id = n.card_id
     WHERE c.spend_allocation_id IS NOT NULL
     ORDER BY 1, 2
  LOOP
    PERFORM ll_restamp_allocation(touched.business_id, touched.id);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_restamp_allocation_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
  EXECUTE FUNCTION ll_restamp_allocations_of_inserted_transactions();

CREATE FUNCTION ll_restamp_allocation_of_transaction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_id uuid;
  after_id uuid;
BEGIN
  SELECT c.spend_allocation_id INTO after_id FROM cards c WHERE c.id = NEW.card_id;
  IF OLD.card_id IS DISTINCT FROM NEW.card_id THEN
    SELECT c.spend_allocation_id INTO before_id FROM cards c WHERE c.id = OLD.card_id;
  END IF;
  PERFORM ll_restamp_allocation(NEW.business_id, after_id);
  IF before_id IS DISTINCT FROM after_id THEN
    PERFORM ll_restamp_allocation(NEW.business_id, before_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_restamp_allocation AFTER UPDATE ON transactions FOR EACH ROW
  WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.state IS DISTINCT FROM NEW.state OR OLD.deleted IS DISTINCT FROM NEW.deleted
        OR OLD.occurred_at IS DISTINCT FROM NEW.occurred_at OR OLD.card_id IS DISTINCT FROM NEW.card_id)
  EXECUTE FUNCTION ll_restamp_allocation_of_transaction();

-- Cards: joining an allocation (issued on it), leaving it (another allocation or none), being
-- terminated or deleted (card_ids lists live cards) re-stamp the allocations on both sides.
CREATE FUNCTION ll_restamp_allocation_of_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM ll_restamp_allocation(NEW.business_id, NEW.spend_allocation_id);
    RETURN NULL;
  END IF;
  PERFORM ll_restamp_allocation(NEW.business_id, NEW.spend_allocation_id);
  IF OLD.spend_allocation_id IS DISTINCT FROM NEW.spend_allocation_id THEN
    PERFORM ll_restamp_allocation(OLD.business_id, OLD.spend_allocation_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER cards_restamp_allocation_insert AFTER INSERT ON cards FOR EACH ROW
  WHEN (NEW.spend_allocation_id IS NOT NULL)
  EXECUTE FUNCTION ll_restamp_allocation_of_card();

CREATE TRIGGER cards_restamp_allocation AFTER UPDATE ON cards FOR EACH ROW
  WHEN (OLD.spend_allocation_id IS DISTINCT FROM NEW.spend_allocation_id
        OR (OLD.status = 'TERMINATED') IS DISTINCT FROM (NEW.status = 'TERMINATED')
        OR OLD.deleted IS DISTINCT FROM NEW.deleted)
  EXECUTE FUNCTION ll_restamp_allocation_of_card();
