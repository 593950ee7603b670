-- Issue 27: a trip's mirrored doc carries its total (schema/entities/trip.ts TRIP_SPEND_ITEMS_SQL),
-- computed from its linked card transactions and claims when the doc is built. The feed sends a
-- doc only when its row's change_seq moves, so a linked row changed by its own writers (a claim's
-- amount or status, a card charge settling or refunded, a transaction deleted) left every mirror
-- with the trip's old total. Whatever writes the row, these triggers re-stamp its trip with a
-- fresh change_seq in the same transaction, and a deleted claim lets go of its link.
--
-- Seqs: the fresh one comes from the business counter exactly as allocateSeqs takes it
-- (server/db/change-seq.ts). Every writer of a mirrored row has already reserved its own seqs
-- first, so the business row's lock is held and the order of locks is unchanged; the trip's seq
-- is unique and above the writer's (a feed page never splits one seq across two rows, since its
-- checkpoint is a seq). The writer announces its own last seq; the trigger announces the trip's
-- on the same channel (delivered only on commit, like announceChange).
--
-- Per row, with a WHEN on the columns the total reads, so bulk coding (memo, GL, …) never calls
-- the function; a changed row that is linked to no live trip costs one index probe.
CREATE FUNCTION ll_restamp_linked_trip() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text := TG_ARGV[0];
  trip uuid;
  seq bigint;
BEGIN
  IF kind = 'reimbursement' AND NEW.deleted AND NOT OLD.deleted THEN
    DELETE FROM trip_spend_events e WHERE e.business_id = NEW.business_id AND e.object_type = kind AND e.object_id = NEW.id
      RETURNING e.trip_id INTO trip;
  ELSE
    SELECT e.trip_id INTO trip FROM trip_spend_events e
     WHERE e.business_id = NEW.business_id AND e.object_type = kind AND e.object_id = NEW.id;
  END IF;
  IF trip IS NULL OR NOT EXISTS (SELECT 1 FROM trips t WHERE t.business_id = NEW.business_id AND t.id = trip AND NOT t.deleted) THEN
    RETURN NULL;
  END IF;
  UPDATE businesses SET change_seq = change_seq + 1 WHERE id = NEW.business_id RETURNING change_seq INTO seq;
  UPDATE trips SET change_seq = seq, updated_at = now() WHERE business_id = NEW.business_id AND id = trip;
  PERFORM pg_notify('ledgerline_changes', json_build_object('business_id', NEW.business_id, 'seq', seq)::text);
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_restamp_trip AFTER UPDATE ON transactions FOR EACH ROW
  WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.state IS DISTINCT FROM NEW.state OR OLD.deleted IS DISTINCT FROM NEW.deleted)
  EXECUTE FUNCTION ll_restamp_linked_trip('transaction');

CREATE TRIGGER reimbursements_restamp_trip AFTER UPDATE ON reimbursements FOR EACH ROW
  WHEN (OLD.amount IS DISTINCT FROM NEW.amount OR OLD.currency IS DISTINCT FROM NEW.currency
        OR OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted IS DISTINCT FROM NEW.deleted)
  EXECUTE FUNCTION ll_restamp_linked_trip('reimbursement');
