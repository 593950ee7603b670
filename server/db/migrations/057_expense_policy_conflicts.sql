-- Issue 29: PATCH /expense-policies/{id} honours If-Match like the other versioned PATCHes
-- (migration 033's "no silent overwrite"): the last change of each field its body can send is
-- recorded, so two admins editing one policy are merged field by field and a field someone else
-- changed since the editor's version answers 409 CONFLICT. server/domain/conflicts.ts declares
-- the same map (conflicts.test.ts checks the two agree). Inserts record nothing, so the seed's
-- policy costs nothing here.
CREATE TRIGGER expense_policies_field_changes
  AFTER UPDATE ON expense_policies REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('expense_policies',
    'name=name', 'description=description', 'scope=scope', 'rules=rules', 'enabled=enabled');
