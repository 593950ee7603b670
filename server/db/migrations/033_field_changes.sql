-- Issue 24 item 9, "no silent overwrite": who last changed each field a PATCH can send, and at
-- which change seq, so a PATCH sent with If-Match can tell a field someone else changed since
-- its base version (409 CONFLICT) from one nobody touched (merged). One row per (row, field):
-- only the latest change is kept (an upsert), so the table grows with the rows, not the edits.
--
-- Every writer is covered without touching it: triggers compare OLD and NEW column by column.
-- On the rows' own tables the trigger is per statement, over its transition tables, so a bulk
-- write records its history in one set-based upsert (bench/conflict-history.ts: per-row
-- plpgsql cost bulk coding of 1,000 rows +240 % on PGlite). The seq recorded is the row's new
-- change_seq: every writer of a mirrored row stamps it in the same UPDATE (server/CONTEXT.md).
-- Bill lines live in their own table and are written after the bill is stamped, so theirs is a
-- deferred per-row constraint trigger that reads the bill's final change_seq at commit.
-- The actor and device come from transaction-local settings that server/http/register.ts sets
-- at the start of every write transaction of a signed-in request (`ledgerline.actor_user`, the
-- spend user; `ledgerline.device`, the X-Ledgerline-Device header); a job, the seed or any
-- write outside a request leaves them unset: user_id null, "no person". Inserts record nothing
-- (a new row has no base to conflict with), so the seed's bulk inserts cost nothing here.
--
-- Trigger arguments, per statement: the collection name (schema/collections.ts), then one
-- 'field=col1,col2' per PATCH body field. Per row (bill lines): the collection, the table
-- holding the row and its change_seq, this table's column naming that row, then 'field=*' (any
-- change of a line). server/domain/conflicts.ts declares the same map; conflicts.test.ts checks
-- the two agree.
CREATE TABLE field_changes (
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  collection   text NOT NULL,
  row_id       uuid NOT NULL,
  field        text NOT NULL,
  seq          bigint NOT NULL,
  user_id      uuid,
  device_id    text,
  changed_at   timestamptz NOT NULL,
  PRIMARY KEY (collection, row_id, field)
) WITH (fillfactor = 70);
-- Rows are rewritten in place by every later change of their field: room on the page keeps those
-- updates HOT (no new index entries). No index on business_id: nothing looks rows up by it.

-- Per statement: one upsert of every (row, field) whose columns differ between OLD and NEW.
CREATE FUNCTION ll_record_field_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs text := '';
  fld text;
  cols text[];
  cond text;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    fld := split_part(TG_ARGV[i], '=', 1);
    cols := string_to_array(split_part(TG_ARGV[i], '=', 2), ',');
    SELECT string_agg(format('o.%1$I IS DISTINCT FROM n.%1$I', c), ' OR ') INTO cond FROM unnest(cols) AS c;
    pairs := pairs || CASE WHEN pairs = '' THEN '' ELSE ', ' END || format('(%L, %s)', fld, cond);
  END LOOP;
  EXECUTE format($sql$
    INSERT INTO field_changes AS f (business_id, collection, row_id, field, seq, user_id, device_id, changed_at)
    SELECT n.business_id, %L, n.id, x.field, n.change_seq,
           nullif(current_setting('ledgerline.actor_user', true), '')::uuid,
           nullif(current_setting('ledgerline.device', true), ''), now()
      FROM ll_old_rows o JOIN ll_new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES %s) AS x (field, changed)
     WHERE x.changed
    ON CONFLICT (collection, row_id, field) DO UPDATE
      SET seq = excluded.seq, user_id = excluded.user_id, device_id = excluded.device_id,
          changed_at = excluded.changed_at, business_id = excluded.business_id
      WHERE f.seq <= excluded.seq$sql$, TG_ARGV[0], pairs);
  RETURN NULL;
END $$;

-- Per row, at commit (bill lines): the change of a child row is a change of the parent's field.
CREATE FUNCTION ll_record_child_field_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rid uuid;
  biz uuid;
  s bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND to_jsonb(OLD) = to_jsonb(NEW) THEN RETURN NULL; END IF;
  rid := (to_jsonb(coalesce(NEW, OLD)) ->> TG_ARGV[2])::uuid;
  EXECUTE format('SELECT business_id, change_seq FROM %I WHERE id = $1', TG_ARGV[1]) INTO biz, s USING rid;
  IF s IS NULL THEN RETURN NULL; END IF;
  INSERT INTO field_changes AS f (business_id, collection, row_id, field, seq, user_id, device_id, changed_at)
  VALUES (biz, TG_ARGV[0], rid, split_part(TG_ARGV[3], '=', 1), s,
          nullif(current_setting('ledgerline.actor_user', true), '')::uuid,
          nullif(current_setting('ledgerline.device', true), ''), now())
  ON CONFLICT (collection, row_id, field) DO UPDATE
    SET seq = excluded.seq, user_id = excluded.user_id, device_id = excluded.device_id,
        changed_at = excluded.changed_at, business_id = excluded.business_id
    WHERE f.seq <= excluded.seq;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_field_changes
  AFTER UPDATE ON transactions REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('transactions',
    'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id', 'location_id=location_id',
    'tracking=tracking');

CREATE TRIGGER reimbursements_field_changes
  AFTER UPDATE ON reimbursements REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('reimbursements',
    'receipt_ids=receipt_ids', 'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id',
    'merchant=merchant', 'amount=amount', 'currency=currency', 'transaction_date=transaction_date',
    'distance_miles=distance_miles', 'start_location=start_location', 'end_location=end_location',
    'trip_date=trip_date', 'location=location', 'start_date=start_date', 'end_date=end_date');

CREATE TRIGGER bills_field_changes
  AFTER UPDATE ON bills REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('bills',
    'vendor_id=vendor_id', 'invoice_number=invoice_number', 'invoice_date=invoice_date', 'due_date=due_date',
    'currency=currency', 'memo=memo', 'entity_id=entity_id', 'invoice_file_id=invoice_file_id');

-- A bill's lines are one field: any line written or removed changes `line_items`. Inserts are left
-- out: a patch replaces the lines by deleting them all first (domain/bills.ts), a bill always has
-- a line (amount > 0 is their sum), and so a new bill's lines and the seed's bulk insert of lines
-- record nothing.
CREATE CONSTRAINT TRIGGER bill_line_items_field_changes
  AFTER UPDATE OR DELETE ON bill_line_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_child_field_change('bills', 'bills', 'bill_id', 'line_items=*');

CREATE TRIGGER cards_field_changes
  AFTER UPDATE ON cards REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('cards',
    'display_name=display_name', 'limit=limit_amount,limit_currency,limit_interval,per_transaction_limit',
    'allowed_categories=allowed_categories', 'department_id=department_id', 'location_id=location_id');

CREATE TRIGGER vendors_field_changes
  AFTER UPDATE ON vendors REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('vendors',
    'name=name', 'email=email', 'phone=phone', 'address=address', 'default_gl_account_id=default_gl_account_id',
    'default_department_id=default_department_id', 'status=status');

CREATE TRIGGER spend_users_field_changes
  AFTER UPDATE ON spend_users REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_field_changes('users',
    'manager_id=manager_id', 'department_id=department_id', 'location_id=location_id', 'entity_id=entity_id');
