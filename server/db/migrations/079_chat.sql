-- Issue 32 (docs/design/issue-32-mail-chat.md, "Slack and Teams"): a business's chat channels
-- (incoming webhooks) and the durable queue of posts to them (server/core/leased-queue.ts).

-- One webhook per business and provider. The URL is a secret: answered masked (its last 4 chars).
-- last_* hold the outcome of the latest post (queued or test) for the settings page.
CREATE TABLE chat_connections (
  business_id     uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  provider        text NOT NULL CHECK (provider IN ('slack', 'teams')),
  webhook_url     text NOT NULL,
  events          text[] NOT NULL,
  connected_by    uuid NOT NULL REFERENCES spend_users(id),
  last_post_at    timestamptz,
  last_post_ok    boolean,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, provider)
);

-- One post per event and channel, written in the transaction that made the notification (a
-- rolled-back request posts nothing). event_key is the notification's (approval:<id>:waiting):
-- several approvers notified of one approval make one post. accepted_at is written the moment
-- the webhook answers 2xx, so a claim that finds it set completes without posting again.
CREATE TABLE chat_posts (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
  provider      text NOT NULL CHECK (provider IN ('slack', 'teams')),
  event_key     text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('approval_waiting', 'rejected')),
  title         text NOT NULL,
  body          text NOT NULL DEFAULT '',
  path          text NOT NULL,
  link_base     text NOT NULL,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'failed', 'dropped')),
  attempts      integer NOT NULL DEFAULT 0,
  run_after     timestamptz NOT NULL,
  leased_until  timestamptz,
  last_error    text,
  accepted_at   timestamptz,
  finished_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, provider, event_key)
);
CREATE INDEX chat_posts_due ON chat_posts (run_after) WHERE state = 'queued';
