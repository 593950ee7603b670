-- Issue 29: comments and the notifications centre.
--
-- notifications: a mirrored collection (schema/entities/notification.ts), one row per person and
-- event. `event_key` names the event that produced it (an approval's step opening, a comment's
-- mention, a workflow execution's action, ...): the unique key makes "notify once per event" the
-- database's rule, so a retried or racing write inserts nothing the second time.
CREATE TABLE notifications (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  owner_id      uuid NOT NULL REFERENCES spend_users (id),
  kind          text NOT NULL CHECK (kind IN ('approval_waiting', 'approved', 'rejected', 'missing_items', 'mention', 'comment', 'workflow', 'large_transaction')),
  title         text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body          text NOT NULL DEFAULT '' CHECK (length(body) <= 2000),
  subject_type  text CHECK (subject_type IN ('transaction', 'reimbursement', 'bill', 'spend_request', 'card_request', 'approval', 'vendor', 'trip', 'workflow')),
  subject_id    uuid,
  path          text NOT NULL DEFAULT '/' CHECK (left(path, 1) = '/' AND length(path) <= 500),
  actor_id      uuid REFERENCES spend_users (id),
  event_key     text NOT NULL CHECK (length(event_key) BETWEEN 1 AND 200),
  read_at       timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  change_seq    bigint NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted       boolean NOT NULL DEFAULT false,
  UNIQUE (business_id, owner_id, event_key)
);
CREATE INDEX notifications_feed ON notifications (business_id, change_seq);
CREATE INDEX notifications_owner ON notifications (business_id, owner_id, created_at DESC, id DESC) WHERE NOT deleted;
CREATE INDEX notifications_unread ON notifications (business_id, owner_id) WHERE read_at IS NULL AND NOT deleted;

-- Which kinds of notification a person does not want mailed (they still show in the app).
CREATE TABLE notification_preferences (
  business_id  uuid NOT NULL REFERENCES businesses (id),
  user_id      uuid NOT NULL REFERENCES spend_users (id),
  email_muted  text[] NOT NULL DEFAULT '{}',
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, user_id)
);

-- §7 "PATCH admin transaction notify threshold": admins hear of a card transaction at or above
-- this amount (in its currency only); null = off.
ALTER TABLE businesses ADD COLUMN transaction_notify_amount bigint CHECK (transaction_notify_amount IS NULL OR transaction_notify_amount > 0),
                       ADD COLUMN transaction_notify_currency text CHECK (transaction_notify_currency IS NULL OR transaction_notify_currency ~ '^[A-Z]{3}$'),
                       ADD CONSTRAINT businesses_transaction_notify_pair CHECK ((transaction_notify_amount IS NULL) = (transaction_notify_currency IS NULL));

-- Comment threads on transactions, claims, bills and spend requests. Not mirrored: a thread is
-- read online when its item is open. A workflow's `comment` action writes one with no author and
-- its workflow named. Deleting keeps the row (deleted_at, deleted_by) so a mention's notification
-- can say the comment is gone; lists leave deleted ones out.
CREATE TABLE comments (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses (id),
  subject_type  text NOT NULL CHECK (subject_type IN ('transaction', 'reimbursement', 'bill', 'spend_request')),
  subject_id    uuid NOT NULL,
  author_id     uuid REFERENCES spend_users (id),
  workflow_id   uuid REFERENCES workflows (id),
  body          text NOT NULL CHECK (length(body) BETWEEN 1 AND 4000),
  mention_ids   uuid[] NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz,
  deleted_by    uuid REFERENCES spend_users (id),
  CHECK ((author_id IS NULL) <> (workflow_id IS NULL)),
  CHECK (cardinality(mention_ids) <= 20)
);
CREATE INDEX comments_subject ON comments (business_id, subject_type, subject_id, created_at, id);
