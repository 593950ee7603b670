-- Issue 32, export table user-settings (schema/export-settings.ts): per person and per table, the
-- columns (keys, in order) of that table's CSV export. No row: every column in the default order.
CREATE TABLE export_settings (
  business_id uuid NOT NULL REFERENCES businesses (id),
  user_id     uuid NOT NULL REFERENCES spend_users (id),
  table_name  text NOT NULL CHECK (length(table_name) <= 40),
  columns     jsonb NOT NULL CHECK (jsonb_typeof(columns) = 'array'),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, table_name)
);
