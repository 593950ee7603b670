-- Issue 32 (docs/design/issue-32-mail-chat.md): mail that leaves the machine, and Slack / Teams
-- incoming webhooks. Both queues are leased work rows (server/core/leased-queue.ts).

-- One row per mail sendMail enqueued, written in the caller's transaction (a rolled-back request
-- leaves no row). message_id is chosen here, before any attempt, so every attempt of one mail
-- carries the same Message-ID; accepted_at is written the moment the SMTP server accepts it, so a
-- claim that finds it set completes without sending again. Bodies are emptied once sent: codes
-- and sign-in links do not stay in the database.
CREATE TABLE mail_outbox (
  id            uuid PRIMARY KEY,
  recipient     text NOT NULL,
  template      text NOT NULL,
  subject       text NOT NULL,
  body_text     text,
  body_html     text,
  message_id    text NOT NULL UNIQUE,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'logged', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  run_after     timestamptz NOT NULL,
  leased_until  timestamptz,
  last_error    text,
  accepted_at   timestamptz,
  finished_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due ON mail_outbox (run_after) WHERE state = 'queued';

-- One incoming webhook per business and kind. The URL is a secret (whoever holds it posts to the
-- channel): encrypted at rest (auth/vendor-bank-crypto.ts), answered masked.
CREATE TABLE chat_webhooks (
  business_id      uuid NOT NULL REFERENCES businesses(id),
  kind             text NOT NULL CHECK (kind IN ('slack', 'teams')),
  url_enc          text NOT NULL,
  url_host         text NOT NULL,
  url_hint         text NOT NULL,
  created_by       uuid,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  last_status      text CHECK (last_status IN ('delivered', 'failed')),
  last_error       text,
  last_delivery_at timestamptz,
  PRIMARY KEY (business_id, kind)
);

-- Posts waiting for (or done with) their webhook. event_key dedupes per business and kind (an
-- approval's request posts once however often its producer runs). The URL is read at delivery:
-- a removed webhook fails its waiting posts instead of posting to a channel nobody configured.
CREATE TABLE chat_outbox (
  id            uuid PRIMARY KEY,
  business_id   uuid NOT NULL REFERENCES businesses(id),
  kind          text NOT NULL CHECK (kind IN ('slack', 'teams')),
  event_key     text NOT NULL,
  payload       jsonb NOT NULL,
  state         text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed')),
  attempts      integer NOT NULL DEFAULT 0,
  run_after     timestamptz NOT NULL,
  leased_until  timestamptz,
  last_error    text,
  finished_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, kind, event_key)
);
CREATE INDEX chat_outbox_due ON chat_outbox (run_after) WHERE state = 'queued';
