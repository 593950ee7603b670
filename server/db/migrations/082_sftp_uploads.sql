-- Issue 32 (helper G): scheduled SFTP transaction uploads (docs/design/issue-32-sftp.md).
-- A destination is an admin's SFTP server for one business: its password or private key is stored
-- encrypted (AES-256-GCM, server/domain/sftp-uploads/credentials.ts) and never answered back.
CREATE TABLE sftp_destinations (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id),
  name             text NOT NULL,
  host             text NOT NULL,
  port             int NOT NULL CHECK (port BETWEEN 1 AND 65535),
  username         text NOT NULL,
  auth_method      text NOT NULL CHECK (auth_method IN ('password', 'private_key')),
  -- `v1.<nonce>.<tag>.<ciphertext>`: the password or the private key (PEM / OpenSSH text).
  secret_enc       text NOT NULL,
  -- The private key's passphrase, encrypted; null when it has none (or for a password).
  passphrase_enc   text,
  folder           text NOT NULL,
  schedule         text NOT NULL CHECK (schedule IN ('daily', 'weekly')),
  -- ISO weekday (1 Monday … 7 Sunday) for weekly uploads; null for daily.
  weekday          int CHECK (weekday BETWEEN 1 AND 7),
  hour_utc         int NOT NULL CHECK (hour_utc BETWEEN 0 AND 23),
  -- The first upload takes cleared transactions dated on or after this day.
  start_date       date NOT NULL,
  next_run_at      timestamptz NOT NULL,
  -- The server's host key (sha256, base64) seen at the first connection; a different key later is refused.
  host_key_sha256  text,
  created_by       uuid NOT NULL REFERENCES spend_users (id),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  deleted_at       timestamptz,
  CHECK ((schedule = 'weekly') = (weekday IS NOT NULL))
);
CREATE INDEX sftp_destinations_business ON sftp_destinations (business_id, created_at) WHERE deleted_at IS NULL;
CREATE INDEX sftp_destinations_due ON sftp_destinations (next_run_at) WHERE deleted_at IS NULL;

-- One upload (a file) per row, on the shared lease primitive (server/core/leased-queue.ts).
CREATE TABLE sftp_uploads (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  destination_id  uuid NOT NULL REFERENCES sftp_destinations (id),
  trigger         text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
  requested_by    uuid REFERENCES spend_users (id),
  file_name       text NOT NULL,
  -- Set when the upload's transactions were chosen (its first attempt); retries send the same set.
  selected_at     timestamptz,
  row_count       int,
  state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'done', 'failed', 'canceled')),
  attempts        int NOT NULL DEFAULT 0,
  run_after       timestamptz NOT NULL,
  leased_until    timestamptz,
  last_error      text,
  started_at      timestamptz,
  finished_at     timestamptz,
  created_at      timestamptz NOT NULL,
  UNIQUE (destination_id, file_name)
);
CREATE INDEX sftp_uploads_due ON sftp_uploads (run_after) WHERE state = 'queued';
-- At most one upload waiting or running per destination: uploads of one destination never overlap.
CREATE UNIQUE INDEX sftp_uploads_one_open ON sftp_uploads (destination_id) WHERE state = 'queued';
CREATE INDEX sftp_uploads_history ON sftp_uploads (destination_id, created_at DESC);

-- Which upload carries each transaction to a destination: a transaction is in at most one upload
-- per destination (no repeats); a failed upload's rows are released for the next one (no gaps).
CREATE TABLE sftp_upload_items (
  destination_id  uuid NOT NULL REFERENCES sftp_destinations (id),
  transaction_id  uuid NOT NULL REFERENCES transactions (id),
  upload_id       uuid NOT NULL REFERENCES sftp_uploads (id),
  PRIMARY KEY (destination_id, transaction_id)
);
CREATE INDEX sftp_upload_items_upload ON sftp_upload_items (upload_id);
