-- Issue 28, three-way match: a bill's PATCH may name its purchase order (`purchase_order_id`), so
-- the field's last change is recorded like the other PATCH fields (migration 033's "no silent
-- overwrite"; server/domain/conflicts.ts declares the same map). The lines' new columns
-- (po_line_id, quantity, unit_price) are already covered: any change of a line is `line_items`.
DROP TRIGGER bills_field_changes ON bills;
CREATE TRIGGER bills_field_changes
  AFTER UPDATE ON bills REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('bills',
    'vendor_id=vendor_id', 'invoice_number=invoice_number', 'invoice_date=invoice_date', 'due_date=due_date',
    'currency=currency', 'memo=memo', 'entity_id=entity_id', 'invoice_file_id=invoice_file_id',
    'purchase_order_id=purchase_order_id');
