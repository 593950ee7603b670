-- Issue 30, "Banking links" (server/domain/banking/): the debit check of a linked bank account,
-- its statements with the lines read from them (on the device) matched to the ledger, and each
-- entity's cash account. bank_accounts itself is 058's.

-- Debit check: two micro-deposits (1–99 cents each) sent to the account, kept encrypted (AES-GCM
-- under the vendor bank key, AAD `bank_account:<id>:micro_deposits`: never answered, never in a
-- log), and the wrong answers counted; the third wrong answer makes the account FAILED. The
-- deposits are the platform's money, not the business's: nothing of them is in its ledger.
ALTER TABLE bank_accounts
  ADD COLUMN micro_deposits_enc text,
  ADD COLUMN verify_attempts integer NOT NULL DEFAULT 0 CHECK (verify_attempts BETWEEN 0 AND 3),
  ADD COLUMN verification_started_at timestamptz,
  ADD CONSTRAINT bank_accounts_pending_has_deposits CHECK (status <> 'PENDING_VERIFICATION' OR micro_deposits_enc IS NOT NULL);

-- A statement the business uploaded for one of its bank accounts: the file's bytes (sniffed as
-- receipts are, STORAGE EXTERNAL: already compressed formats) and, once read, its lines.
CREATE TABLE bank_statements (
  id               uuid PRIMARY KEY,
  business_id      uuid NOT NULL REFERENCES businesses (id),
  bank_account_id  uuid NOT NULL,
  file_name        text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 200),
  content_type     text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg', 'image/webp')),
  size             integer NOT NULL CHECK (size > 0),
  sha256           text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes            bytea,
  status           text NOT NULL DEFAULT 'UPLOADED' CHECK (status IN ('UPLOADED', 'READ')),
  period_start     date,
  period_end       date,
  uploaded_by      uuid NOT NULL REFERENCES spend_users (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted          boolean NOT NULL DEFAULT false,
  CHECK (deleted OR bytes IS NOT NULL),
  CHECK (period_start IS NULL OR period_end IS NULL OR period_start <= period_end),
  FOREIGN KEY (business_id, bank_account_id) REFERENCES bank_accounts (business_id, id),
  UNIQUE (business_id, id)
);
ALTER TABLE bank_statements ALTER COLUMN bytes SET STORAGE EXTERNAL;
CREATE INDEX bank_statements_account ON bank_statements (business_id, bank_account_id, created_at) WHERE NOT deleted;

-- A statement's lines (replaced whole by each PUT), each matched to at most one journal entry
-- posted on the bank account's EXTERNAL_BANK ledger account, and each entry to at most one line
-- of any live statement (the unique index; a deleted statement's lines are dropped).
CREATE TABLE bank_statement_lines (
  business_id        uuid NOT NULL,
  statement_id       uuid NOT NULL,
  line_no            integer NOT NULL CHECK (line_no >= 0),
  date               date NOT NULL,
  description        text NOT NULL CHECK (length(description) BETWEEN 1 AND 300),
  amount             bigint NOT NULL,
  matched_entry_id   uuid,
  matched_transfer_id uuid,
  PRIMARY KEY (statement_id, line_no),
  FOREIGN KEY (business_id, statement_id) REFERENCES bank_statements (business_id, id),
  FOREIGN KEY (business_id, matched_entry_id) REFERENCES journal_entries (business_id, id)
);
CREATE UNIQUE INDEX bank_statement_lines_entry ON bank_statement_lines (matched_entry_id) WHERE matched_entry_id IS NOT NULL;

-- Each entity's cash account: the linked bank account, wallet account and GL account its money is
-- booked to (all the business's: the composite keys).
CREATE TABLE entity_cash_accounts (
  business_id        uuid NOT NULL REFERENCES businesses (id),
  entity_id          uuid NOT NULL REFERENCES business_entities (id),
  bank_account_id    uuid,
  wallet_account_id  uuid,
  gl_account_id      uuid REFERENCES gl_accounts (id),
  updated_by         uuid REFERENCES spend_users (id),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (business_id, entity_id),
  FOREIGN KEY (business_id, bank_account_id) REFERENCES bank_accounts (business_id, id),
  FOREIGN KEY (business_id, wallet_account_id) REFERENCES ledger_accounts (business_id, id)
);
