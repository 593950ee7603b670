-- Issue 26: who was present at the meal or event a transaction paid for (names or emails, as typed),
-- set through the transaction's coding PATCH and mirrored in its doc, which is derived from the
-- entity's columns (schema/entities/transaction.ts): this column is the field's whole server side.
ALTER TABLE transactions ADD COLUMN attendees text[] NOT NULL DEFAULT '{}'
  CHECK (cardinality(attendees) <= 50);

-- A PATCH field is a conflict field (domain/conflicts.ts CONFLICT_FIELDS: every coding field):
-- migration 033's trigger again, with `attendees` last, as the coding patch lists it.
DROP TRIGGER transactions_field_changes ON transactions;
CREATE TRIGGER transactions_field_changes
  AFTER UPDATE ON transactions REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('transactions',
    'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id', 'location_id=location_id',
    'tracking=tracking', 'attendees=attendees');
