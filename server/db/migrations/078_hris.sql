-- Issue 32, the HRIS connection (docs/design/issue-32-hris.md): one connection per business, the
-- imports it made (each with its parsed rows, its per-row errors or its diff), and the link of a
-- spend user to their HRIS record (employee id, title, dates) that later imports match on.

CREATE TABLE hris_connections (
  business_id        uuid PRIMARY KEY REFERENCES businesses (id),
  provider           text NOT NULL CHECK (provider IN ('BambooHR', 'Rippling', 'Workday', 'Gusto', 'HiBob', 'Personio', 'CSV')),
  mode               text NOT NULL CHECK (mode IN ('upload', 'drop')),
  invite_new_hires   boolean NOT NULL,
  suspend_leavers    boolean NOT NULL,
  auto_apply         boolean NOT NULL,
  default_role       text NOT NULL,
  -- The drop folder's name under HRIS_DROP_DIR: random, so one business cannot guess another's.
  drop_token         text NOT NULL UNIQUE,
  -- Who saved the connection last: the person a drop's automatic apply acts for (invites name them).
  connected_by       uuid NOT NULL REFERENCES spend_users (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE hris_imports (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  provider      text NOT NULL,
  source        text NOT NULL CHECK (source IN ('upload', 'drop')),
  file_name     text NOT NULL,
  file_sha256   text NOT NULL,
  -- invalid: per-row errors, nothing to apply; ready: a diff waits for review; applied; stale: the
  -- people changed after the diff was made, so it was not applied (import the file again).
  status        text NOT NULL CHECK (status IN ('invalid', 'ready', 'applied', 'stale')),
  row_count     integer NOT NULL,
  rows          jsonb NOT NULL DEFAULT '[]',
  errors        jsonb NOT NULL DEFAULT '[]',
  diff          jsonb,
  created_by    uuid REFERENCES spend_users (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  applied_by    uuid REFERENCES spend_users (id),
  applied_at    timestamptz
);
CREATE INDEX hris_imports_business ON hris_imports (business_id, created_at DESC);
-- A dropped file is taken once per business even when two server processes see it at once.
CREATE UNIQUE INDEX hris_imports_drop_once ON hris_imports (business_id, file_sha256) WHERE source = 'drop';

CREATE TABLE hris_people (
  user_id       uuid PRIMARY KEY REFERENCES spend_users (id),
  business_id   uuid NOT NULL REFERENCES businesses (id),
  employee_id   text NOT NULL,
  title         text,
  start_date    date,
  end_date      date,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, employee_id)
);
