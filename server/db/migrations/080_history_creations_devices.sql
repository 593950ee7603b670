-- Issue 32, event history (docs/design/issue-32-jobs.md): the creation of an entity is its first
-- event, and a device id reads as the device's name.
--
-- Creations: one 'created' event per inserted row, set-based over the statement's new rows (the
-- same per-statement shape as 077's updates), naming the person, device and source the
-- transaction was marked with (nobody marked = the system: a card charge, a job). The seed's bulk
-- transactions run without triggers (replica role), so they cost nothing here either.
CREATE FUNCTION ll_record_entity_creations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO entity_events (business_id, entity_type, entity_id, field, old_value, new_value, user_id, device_id, source, changed_at)
  SELECT n.business_id, TG_ARGV[0], n.id, 'created', NULL, NULL,
         nullif(current_setting('ledgerline.actor_user', true), '')::uuid,
         nullif(current_setting('ledgerline.device', true), ''),
         nullif(current_setting('ledgerline.source', true), '')::jsonb, now()
    FROM ll_new_rows n;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_entity_creations
  AFTER INSERT ON transactions REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('transaction');
CREATE TRIGGER reimbursements_entity_creations
  AFTER INSERT ON reimbursements REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('reimbursement');
CREATE TRIGGER bills_entity_creations
  AFTER INSERT ON bills REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('bill');
CREATE TRIGGER cards_entity_creations
  AFTER INSERT ON cards REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('card');
CREATE TRIGGER vendors_entity_creations
  AFTER INSERT ON vendors REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('vendor');
CREATE TRIGGER spend_users_entity_creations
  AFTER INSERT ON spend_users REFERENCING NEW TABLE AS ll_new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ll_record_entity_creations('user');

-- Devices: the X-Ledgerline-Device a signed-in write names, with a human name read from the
-- browser's User-Agent when it first wrote ("Chrome on macOS"), per business (a device id says
-- nothing across businesses). Kept current when the name read changes (a new browser profile on
-- the same id cannot happen; a browser or OS update can).
CREATE TABLE devices (
  business_id    uuid NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
  id             text NOT NULL,
  name           text NOT NULL,
  first_seen_at  timestamptz NOT NULL,
  last_seen_at   timestamptz NOT NULL,
  PRIMARY KEY (business_id, id)
);
