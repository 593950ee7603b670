-- Issue 29: expense policies (schema/expense-policy.ts, schema/entities/expense-policy.ts).
-- Reference data every member mirrors (visibility `business`); `scope` and `rules` are the wire
-- shapes as jsonb (validated by the catalogue's zod schema on every write). Deleting is a
-- tombstone so mirrors drop it. Reminders sent from the compliance view are one row per person
-- and UTC day: a second reminder the same day is refused by the primary key, not by code.
CREATE TABLE expense_policies (
  id           uuid PRIMARY KEY,
  business_id  uuid NOT NULL REFERENCES businesses (id),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  description  text CHECK (description IS NULL OR length(description) <= 2000),
  scope        jsonb NOT NULL,
  rules        jsonb NOT NULL,
  enabled      boolean NOT NULL DEFAULT true,
  created_by   uuid NOT NULL REFERENCES spend_users (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_by   uuid REFERENCES spend_users (id),
  change_seq   bigint NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false
);
CREATE INDEX expense_policies_feed ON expense_policies (business_id, change_seq);
CREATE INDEX expense_policies_live ON expense_policies (business_id, created_at, id) WHERE NOT deleted;

CREATE TABLE missing_item_reminders (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  user_id      uuid NOT NULL REFERENCES spend_users (id),
  day          date NOT NULL,
  sent_by      uuid NOT NULL REFERENCES spend_users (id),
  item_count   integer NOT NULL CHECK (item_count > 0),
  sent_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, user_id, day)
);
