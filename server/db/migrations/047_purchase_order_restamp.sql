-- Issue 28: a purchase order's mirrored doc (schema/entities/purchase-order.ts) carries the live
-- bills naming it (`bill_ids`) and, per line, the units those bills' lines bill (`billed_quantity`),
-- computed when the doc is built. The feed sends a doc only when its row's change_seq moves, so a
-- bill written by its own writers (created naming the PO, its lines replaced, canceled, deleted,
-- moved to another PO) left every mirror with the PO's old figures. Whatever writes the bill or its
-- lines, these triggers re-stamp the PO (each one concerned: the old and the new) with a fresh
-- change_seq in the same transaction, as 042_trip_total_restamp.sql does for trips.
--
-- Seqs: taken from the business counter exactly as allocateSeqs does. Every bill writer reserves
-- its own seqs first (writeMirrored), so the business row's lock is already held and the lock order
-- (business, then rows) is unchanged; a receipt's writer takes the business row before the PO row
-- too. The PO's seq is unique and above the writer's; it is announced on the same channel
-- (delivered on commit only, like announceChange).
--
-- Per row, with a WHEN on what the doc reads, so writes that only touch other columns (the match
-- outcome `po_match`, coding, approvals) never call the function.
CREATE FUNCTION ll_restamp_purchase_order(business uuid, po uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  seq bigint;
BEGIN
  IF po IS NULL OR NOT EXISTS (SELECT 1 FROM purchase_orders p WHERE p.business_id = business AND p.id = po AND NOT p.deleted) THEN
    RETURN;
  END IF;
  UPDATE businesses SET change_seq = change_seq + 1 WHERE id = business RETURNING change_seq INTO seq;
  UPDATE purchase_orders SET change_seq = seq, updated_at = now() WHERE business_id = business AND id = po;
  PERFORM pg_notify('ledgerline_changes', json_build_object('business_id', business, 'seq', seq)::text);
END $$;

CREATE FUNCTION ll_restamp_billed_purchase_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'bills' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM ll_restamp_purchase_order(OLD.business_id, OLD.purchase_order_id);
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.purchase_order_id IS DISTINCT FROM OLD.purchase_order_id) THEN
      PERFORM ll_restamp_purchase_order(NEW.business_id, NEW.purchase_order_id);
    END IF;
    RETURN NULL;
  END IF;
  -- bill_line_items: the PO of the line's PO line (old and new, when a line moves).
  IF TG_OP <> 'INSERT' AND OLD.po_line_id IS NOT NULL THEN
    PERFORM ll_restamp_purchase_order(p.business_id, p.id)
       FROM purchase_order_lines l JOIN purchase_orders p ON p.id = l.purchase_order_id WHERE l.id = OLD.po_line_id;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.po_line_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.po_line_id IS DISTINCT FROM OLD.po_line_id OR NOT EXISTS (
       SELECT 1 FROM purchase_order_lines a JOIN purchase_order_lines b ON a.purchase_order_id = b.purchase_order_id
        WHERE a.id = OLD.po_line_id AND b.id = NEW.po_line_id)) THEN
    PERFORM ll_restamp_purchase_order(p.business_id, p.id)
       FROM purchase_order_lines l JOIN purchase_orders p ON p.id = l.purchase_order_id WHERE l.id = NEW.po_line_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER bills_restamp_purchase_order_insert AFTER INSERT ON bills FOR EACH ROW
  WHEN (NEW.purchase_order_id IS NOT NULL)
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();
-- A bill leaves `bill_ids` (and its lines leave `billed_quantity`) when deleted or canceled.
CREATE TRIGGER bills_restamp_purchase_order_update AFTER UPDATE ON bills FOR EACH ROW
  WHEN ((OLD.purchase_order_id IS NOT NULL OR NEW.purchase_order_id IS NOT NULL)
        AND (OLD.purchase_order_id IS DISTINCT FROM NEW.purchase_order_id OR OLD.deleted IS DISTINCT FROM NEW.deleted
             OR (OLD.status = 'CANCELED') IS DISTINCT FROM (NEW.status = 'CANCELED')))
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();
CREATE TRIGGER bills_restamp_purchase_order_delete AFTER DELETE ON bills FOR EACH ROW
  WHEN (OLD.purchase_order_id IS NOT NULL)
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();

CREATE TRIGGER bill_lines_restamp_purchase_order_insert AFTER INSERT ON bill_line_items FOR EACH ROW
  WHEN (NEW.po_line_id IS NOT NULL)
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();
CREATE TRIGGER bill_lines_restamp_purchase_order_update AFTER UPDATE ON bill_line_items FOR EACH ROW
  WHEN ((OLD.po_line_id IS NOT NULL OR NEW.po_line_id IS NOT NULL)
        AND (OLD.po_line_id IS DISTINCT FROM NEW.po_line_id OR OLD.quantity IS DISTINCT FROM NEW.quantity))
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();
CREATE TRIGGER bill_lines_restamp_purchase_order_delete AFTER DELETE ON bill_line_items FOR EACH ROW
  WHEN (OLD.po_line_id IS NOT NULL)
  EXECUTE FUNCTION ll_restamp_billed_purchase_order();
