-- Issue 32 (§7 `PUT attendee-split`, docs/design/issue-32-long-tail.md): a transaction's amount split
-- across its attendees (schema/attendee-split.ts: mode, currency, total, shares), or NULL for none.
-- Mirrored in the transaction's doc; the event history records its changes beside the coding's.
ALTER TABLE transactions ADD COLUMN attendee_split jsonb;

DROP TRIGGER transactions_entity_events ON transactions;
CREATE TRIGGER transactions_entity_events
  AFTER UPDATE ON transactions REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('transaction',
    'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id', 'location_id=location_id',
    'tracking=tracking', 'state=state', 'attendee_split=attendee_split');
