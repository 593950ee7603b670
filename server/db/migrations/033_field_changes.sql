-- Issue 24 item 9, "no silent overwrite": who last changed each field a PATCH can send, and at
-- which change seq, so a PATCH sent with If-Match can tell a field someone else changed since
-- its base version (409 CONFLICT) from one nobody touched (merged). One row per (row, field):
-- only the latest change is kept (an upsert), so the table grows with the rows, not the edits.
--
-- Every writer is covered without touching it: a trigger on each table compares OLD and NEW
-- column by column. It is a deferred constraint trigger, so it runs at commit and reads the
-- row's final change_seq (a writer may stamp the seq in a later statement than the field). The
-- actor and device come from transaction-local settings that server/http/register.ts sets at
-- the start of every write transaction of a signed-in request (`ledgerline.actor_user`, the
-- spend user; `ledgerline.device`, the X-Ledgerline-Device header); a job, the seed or any
-- write outside a request leaves them unset: user_id null, "no person". Inserts record nothing
-- (a new row has no base to conflict with), so the seed's bulk inserts cost nothing here.
--
-- Trigger arguments: the collection name (schema/collections.ts), the table holding the row and
-- its change_seq, the column of this table naming that row, then one 'field=col1,col2' per PATCH
-- body field ('field=*': any change of this table's row, for child tables such as bill lines).
-- server/domain/conflicts.ts declares the same map; conflicts.test.ts checks the two agree.
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
);
CREATE INDEX field_changes_business ON field_changes (business_id);

CREATE FUNCTION ll_record_field_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o jsonb;
  n jsonb;
  rid uuid;
  biz uuid;
  s bigint;
  spec text;
  fld text;
  cols text[];
  c text;
  changed boolean;
  actor uuid;
  device text;
BEGIN
  IF TG_OP <> 'INSERT' THEN o := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN n := to_jsonb(NEW); END IF;
  rid := (coalesce(n, o) ->> TG_ARGV[2])::uuid;
  FOR i IN 3 .. TG_NARGS - 1 LOOP
    spec := TG_ARGV[i];
    fld := split_part(spec, '=', 1);
    cols := string_to_array(split_part(spec, '=', 2), ',');
    changed := false;
    IF cols = ARRAY['*'] THEN
      changed := TG_OP <> 'UPDATE' OR o IS DISTINCT FROM n;
    ELSIF TG_OP = 'UPDATE' THEN
      FOREACH c IN ARRAY cols LOOP
        IF (o -> c) IS DISTINCT FROM (n -> c) THEN changed := true; EXIT; END IF;
      END LOOP;
    END IF;
    IF changed THEN
      IF s IS NULL THEN
        EXECUTE format('SELECT business_id, change_seq FROM %I WHERE id = $1', TG_ARGV[1]) INTO biz, s USING rid;
        IF s IS NULL THEN RETURN NULL; END IF;
        actor := nullif(current_setting('ledgerline.actor_user', true), '')::uuid;
        device := nullif(current_setting('ledgerline.device', true), '');
      END IF;
      INSERT INTO field_changes AS f (business_id, collection, row_id, field, seq, user_id, device_id, changed_at)
      VALUES (biz, TG_ARGV[0], rid, fld, s, actor, device, now())
      ON CONFLICT (collection, row_id, field) DO UPDATE
        SET seq = excluded.seq, user_id = excluded.user_id, device_id = excluded.device_id,
            changed_at = excluded.changed_at, business_id = excluded.business_id
        WHERE f.seq <= excluded.seq;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER transactions_field_changes
  AFTER UPDATE OF memo, gl_account_id, department_id, location_id, tracking ON transactions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('transactions', 'transactions', 'id',
    'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id', 'location_id=location_id',
    'tracking=tracking');

CREATE CONSTRAINT TRIGGER reimbursements_field_changes
  AFTER UPDATE OF receipt_ids, memo, gl_account_id, department_id, merchant, amount, currency, transaction_date,
    distance_miles, start_location, end_location, trip_date, location, start_date, end_date ON reimbursements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('reimbursements', 'reimbursements', 'id',
    'receipt_ids=receipt_ids', 'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id',
    'merchant=merchant', 'amount=amount', 'currency=currency', 'transaction_date=transaction_date',
    'distance_miles=distance_miles', 'start_location=start_location', 'end_location=end_location',
    'trip_date=trip_date', 'location=location', 'start_date=start_date', 'end_date=end_date');

CREATE CONSTRAINT TRIGGER bills_field_changes
  AFTER UPDATE OF vendor_id, invoice_number, invoice_date, due_date, currency, memo, entity_id, invoice_file_id ON bills
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('bills', 'bills', 'id',
    'vendor_id=vendor_id', 'invoice_number=invoice_number', 'invoice_date=invoice_date', 'due_date=due_date',
    'currency=currency', 'memo=memo', 'entity_id=entity_id', 'invoice_file_id=invoice_file_id');

-- A bill's lines are one field: any line written or removed changes `line_items`. Inserts are left
-- out: a patch replaces the lines by deleting them all first (domain/bills.ts), a bill always has
-- a line (amount > 0 is their sum), and so a new bill's lines and the seed's bulk insert of lines
-- record nothing.
CREATE CONSTRAINT TRIGGER bill_line_items_field_changes
  AFTER UPDATE OR DELETE ON bill_line_items
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('bills', 'bills', 'bill_id', 'line_items=*');

CREATE CONSTRAINT TRIGGER cards_field_changes
  AFTER UPDATE OF display_name, limit_amount, limit_currency, limit_interval, per_transaction_limit,
    allowed_categories, department_id, location_id ON cards
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('cards', 'cards', 'id',
    'display_name=display_name', 'limit=limit_amount,limit_currency,limit_interval,per_transaction_limit',
    'allowed_categories=allowed_categories', 'department_id=department_id', 'location_id=location_id');

CREATE CONSTRAINT TRIGGER vendors_field_changes
  AFTER UPDATE OF name, email, phone, address, default_gl_account_id, default_department_id, status ON vendors
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('vendors', 'vendors', 'id',
    'name=name', 'email=email', 'phone=phone', 'address=address', 'default_gl_account_id=default_gl_account_id',
    'default_department_id=default_department_id', 'status=status');

CREATE CONSTRAINT TRIGGER spend_users_field_changes
  AFTER UPDATE OF manager_id, department_id, location_id, entity_id ON spend_users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION ll_record_field_changes('users', 'spend_users', 'id',
    'manager_id=manager_id', 'department_id=department_id', 'location_id=location_id', 'entity_id=entity_id');
