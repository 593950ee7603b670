-- Set-based writers (bulk coding) compute search_text in the UPDATE itself, where the lookups
-- are planned once for the whole statement instead of once per row inside the trigger: for
-- 10,000 rows that halves the statement's time. The trigger now only fills in search_text for
-- writers that leave it unchanged.
DROP TRIGGER transactions_search_text ON transactions;
CREATE TRIGGER transactions_search_text_insert
  BEFORE INSERT ON transactions
  FOR EACH ROW WHEN (NEW.search_text = '') EXECUTE FUNCTION ll_transactions_search_trigger();
CREATE TRIGGER transactions_search_text_update
  BEFORE UPDATE OF merchant_name, memo, user_id, gl_account_id, department_id, location_id, tracking
  ON transactions
  FOR EACH ROW WHEN (NEW.search_text IS NOT DISTINCT FROM OLD.search_text)
  EXECUTE FUNCTION ll_transactions_search_trigger();
