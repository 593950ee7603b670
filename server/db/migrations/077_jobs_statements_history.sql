-- Issue 32 (docs/design/issue-32-jobs.md): async jobs, and the event history of each entity.
--
-- Async jobs are rows taken by lease (server/core/leased-queue.ts): `state` stays 'queued' while a
-- job may be claimed or is running (a live lease + started_at says running); 'done', 'failed' and
-- 'canceled' are final. The result is one file, kept beside the row (async_job_files) so listing
-- jobs never reads bytes.
CREATE TABLE async_jobs (
  id             uuid PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  requested_by   uuid NOT NULL REFERENCES spend_users (id),
  kind           text NOT NULL CHECK (kind ~ '^[a-z_]{1,40}$'),
  params         jsonb NOT NULL DEFAULT '{}',
  state          text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed', 'canceled')),
  attempts       integer NOT NULL DEFAULT 0,
  run_after      timestamptz NOT NULL,
  leased_until   timestamptz,
  last_error     text,
  started_at     timestamptz,
  finished_at    timestamptz,
  progress       integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  progress_text  text NOT NULL DEFAULT '',
  result_name    text,
  result_type    text,
  result_size    integer,
  created_at     timestamptz NOT NULL
);
CREATE INDEX async_jobs_due ON async_jobs (run_after) WHERE state = 'queued';
CREATE INDEX async_jobs_requester ON async_jobs (business_id, requested_by, created_at DESC);

CREATE TABLE async_job_files (
  job_id  uuid PRIMARY KEY REFERENCES async_jobs (id) ON DELETE CASCADE,
  bytes   bytea NOT NULL
);
-- PDFs are compressed already; CSVs are small. Keep TOAST from compressing again.
ALTER TABLE async_job_files ALTER COLUMN bytes SET STORAGE EXTERNAL;

-- Event history: every change of a tracked field, from → to, who (the spend user, or the source a
-- write came through: an API client, SCIM, HRIS; neither = the system), when and from which
-- device. field_changes (033) keeps only each field's latest writer, for conflicts; this keeps every
-- change. Same trigger shape as 033 (per statement, over transition tables, one set-based insert),
-- so bulk coding stays one statement; inserts record nothing (the seed costs nothing here).
ALTER TABLE field_changes ADD COLUMN source jsonb;

CREATE TABLE entity_events (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  entity_type  text NOT NULL,
  entity_id    uuid NOT NULL,
  field        text NOT NULL,
  old_value    jsonb,
  new_value    jsonb,
  user_id      uuid,
  device_id    text,
  source       jsonb,
  changed_at   timestamptz NOT NULL
);
CREATE INDEX entity_events_entity ON entity_events (entity_type, entity_id, id DESC);

-- Arguments: the entity type, then one 'field=col1,col2' per field; a field of one column keeps
-- that column's value, of several an object of them (a card's limit).
CREATE FUNCTION ll_record_entity_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pairs text := '';
  fld text;
  cols text[];
  cond text;
  oldv text;
  newv text;
BEGIN
  FOR i IN 1 .. TG_NARGS - 1 LOOP
    fld := split_part(TG_ARGV[i], '=', 1);
    cols := string_to_array(split_part(TG_ARGV[i], '=', 2), ',');
    SELECT string_agg(format('o.%1$I IS DISTINCT FROM n.%1$I', c), ' OR ') INTO cond FROM unnest(cols) AS c;
    IF array_length(cols, 1) = 1 THEN
      oldv := format('to_jsonb(o.%I)', cols[1]);
      newv := format('to_jsonb(n.%I)', cols[1]);
    ELSE
      SELECT format('jsonb_build_object(%s)', string_agg(format('%L, o.%I', c, c), ', ')),
             format('jsonb_build_object(%s)', string_agg(format('%L, n.%I', c, c), ', '))
        INTO oldv, newv FROM unnest(cols) AS c;
    END IF;
    pairs := pairs || CASE WHEN pairs = '' THEN '' ELSE ', ' END || format('(%L, %s, %s, %s)', fld, cond, oldv, newv);
  END LOOP;
  EXECUTE format($sql$
    INSERT INTO entity_events (business_id, entity_type, entity_id, field, old_value, new_value, user_id, device_id, source, changed_at)
    SELECT n.business_id, %L, n.id, x.field, x.old_value, x.new_value,
           nullif(current_setting('ledgerline.actor_user', true), '')::uuid,
           nullif(current_setting('ledgerline.device', true), ''),
           nullif(current_setting('ledgerline.source', true), '')::jsonb, now()
      FROM ll_old_rows o JOIN ll_new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES %s) AS x (field, changed, old_value, new_value)
     WHERE x.changed$sql$, TG_ARGV[0], pairs);
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_entity_events
  AFTER UPDATE ON transactions REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('transaction',
    'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id', 'location_id=location_id',
    'tracking=tracking', 'state=state');

CREATE TRIGGER reimbursements_entity_events
  AFTER UPDATE ON reimbursements REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('reimbursement',
    'status=status', 'memo=memo', 'gl_account_id=gl_account_id', 'department_id=department_id',
    'merchant=merchant', 'amount=amount', 'currency=currency', 'transaction_date=transaction_date',
    'distance_miles=distance_miles', 'start_location=start_location', 'end_location=end_location',
    'trip_date=trip_date', 'location=location', 'start_date=start_date', 'end_date=end_date', 'receipt_ids=receipt_ids');

CREATE TRIGGER bills_entity_events
  AFTER UPDATE ON bills REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('bill',
    'status=status', 'amount=amount', 'vendor_id=vendor_id', 'invoice_number=invoice_number', 'invoice_date=invoice_date',
    'due_date=due_date', 'currency=currency', 'memo=memo', 'entity_id=entity_id', 'invoice_file_id=invoice_file_id');

CREATE TRIGGER cards_entity_events
  AFTER UPDATE ON cards REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('card',
    'status=status', 'display_name=display_name', 'limit=limit_amount,limit_currency,limit_interval,per_transaction_limit',
    'allowed_categories=allowed_categories', 'department_id=department_id', 'location_id=location_id');

CREATE TRIGGER vendors_entity_events
  AFTER UPDATE ON vendors REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('vendor',
    'name=name', 'email=email', 'phone=phone', 'address=address', 'default_gl_account_id=default_gl_account_id',
    'default_department_id=default_department_id', 'status=status');

CREATE TRIGGER spend_users_entity_events
  AFTER UPDATE ON spend_users REFERENCING OLD TABLE AS ll_old_rows NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_events('user',
    'role=role', 'status=status', 'manager_id=manager_id', 'department_id=department_id', 'location_id=location_id',
    'entity_id=entity_id');

-- field_changes (033) also names the source now: the same two functions, reading ledgerline.source.
CREATE OR REPLACE FUNCTION ll_record_field_changes() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO field_changes AS f (business_id, collection, row_id, field, seq, user_id, device_id, source, changed_at)
    SELECT n.business_id, %L, n.id, x.field, n.change_seq,
           nullif(current_setting('ledgerline.actor_user', true), '')::uuid,
           nullif(current_setting('ledgerline.device', true), ''),
           nullif(current_setting('ledgerline.source', true), '')::jsonb, now()
      FROM ll_old_rows o JOIN ll_new_rows n ON n.id = o.id
     CROSS JOIN LATERAL (VALUES %s) AS x (field, changed)
     WHERE x.changed
    ON CONFLICT (collection, row_id, field) DO UPDATE
      SET seq = excluded.seq, user_id = excluded.user_id, device_id = excluded.device_id, source = excluded.source,
          changed_at = excluded.changed_at, business_id = excluded.business_id
      WHERE f.seq <= excluded.seq$sql$, TG_ARGV[0], pairs);
  RETURN NULL;
END $$;
