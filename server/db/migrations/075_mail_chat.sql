-- Issue 32 (docs/design/issue-32-mail-chat.md): mail that leaves the machine, a queue of leased
-- work rows (server/core/leased-queue.ts).

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
