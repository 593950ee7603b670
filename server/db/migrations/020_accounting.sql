-- Issue 12: accounting close (schema/api/calls-accounting.ts; server/domain/accounting/).
-- A business connects one file-based provider (csv, quickbooks_desktop, xero_csv), keeps its
-- export preferences, maps merchants/categories/vendors to coding, and sends its coded, approved
-- spend to the accounting system in sync commits whose files are stored here for download.

-- One row per business: the connected provider (null once disconnected) and the preferences.
CREATE TABLE accounting_settings (
  business_id                uuid PRIMARY KEY REFERENCES businesses (id),
  provider_type              text CHECK (provider_type IN ('csv', 'quickbooks_desktop', 'xero_csv')),
  connected_at               timestamptz,
  connected_by               uuid REFERENCES spend_users (id),
  disconnected_at            timestamptz,
  default_provider           text CHECK (default_provider IN ('csv', 'quickbooks_desktop', 'xero_csv')),
  iif_card_account           text NOT NULL DEFAULT 'Corporate Card',
  iif_ap_account             text NOT NULL DEFAULT 'Accounts Payable',
  iif_reimbursement_account  text NOT NULL DEFAULT 'Employee Reimbursements Payable',
  updated_at                 timestamptz NOT NULL DEFAULT now(),
  CHECK ((provider_type IS NULL) = (connected_at IS NULL))
);

-- Mapping rules: the first live rule (priority, then age) whose condition matches codes a row.
CREATE TABLE accounting_mapping_rules (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  priority        integer NOT NULL CHECK (priority >= 0),
  match_field     text NOT NULL CHECK (match_field IN ('merchant_name', 'merchant_category', 'vendor')),
  match_operator  text NOT NULL CHECK (match_operator IN ('equals', 'contains')),
  match_value     text NOT NULL,
  gl_account_id   uuid REFERENCES gl_accounts (id),
  department_id   uuid REFERENCES departments (id),
  tracking        jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_by      uuid NOT NULL REFERENCES spend_users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted         boolean NOT NULL DEFAULT false
);
CREATE INDEX accounting_mapping_rules_order ON accounting_mapping_rules (business_id, priority, created_at, id) WHERE NOT deleted;

CREATE TABLE accounting_sync_commits (
  id             uuid PRIMARY KEY,
  business_id    uuid NOT NULL REFERENCES businesses (id),
  provider_type  text NOT NULL CHECK (provider_type IN ('csv', 'quickbooks_desktop', 'xero_csv')),
  created_by     uuid NOT NULL REFERENCES spend_users (id),
  created_at     timestamptz NOT NULL DEFAULT now(),
  item_count     integer NOT NULL CHECK (item_count > 0)
);
CREATE INDEX accounting_sync_commits_newest ON accounting_sync_commits (business_id, created_at DESC, id DESC);

-- The files a commit produced, as written (text formats only: CSV and IIF).
CREATE TABLE accounting_sync_files (
  commit_id      uuid NOT NULL REFERENCES accounting_sync_commits (id),
  business_id    uuid NOT NULL REFERENCES businesses (id),
  position       integer NOT NULL,
  name           text NOT NULL,
  content_type   text NOT NULL,
  content        text NOT NULL,
  PRIMARY KEY (commit_id, position),
  UNIQUE (commit_id, name)
);

-- What each commit carried (kept when an item is later marked not synced and committed again).
CREATE TABLE accounting_sync_items (
  commit_id    uuid NOT NULL REFERENCES accounting_sync_commits (id),
  business_id  uuid NOT NULL REFERENCES businesses (id),
  object_type  text NOT NULL CHECK (object_type IN ('transaction', 'bill', 'reimbursement')),
  object_id    uuid NOT NULL,
  PRIMARY KEY (commit_id, object_type, object_id)
);
CREATE INDEX accounting_sync_items_object ON accounting_sync_items (object_type, object_id);

-- The synced mark travels in the mirrored docs (accounting_synced_at); nullable, no default, so
-- adding them rewrites no table.
ALTER TABLE transactions ADD COLUMN accounting_synced_at timestamptz, ADD COLUMN accounting_sync_commit_id uuid;
ALTER TABLE bills ADD COLUMN accounting_synced_at timestamptz, ADD COLUMN accounting_sync_commit_id uuid;
ALTER TABLE reimbursements ADD COLUMN accounting_synced_at timestamptz, ADD COLUMN accounting_sync_commit_id uuid;

-- Manual reconciliation: a card transaction matched to a bill it paid or to a bank statement line.
CREATE TABLE accounting_reconciliation_matches (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  transaction_id  uuid NOT NULL REFERENCES transactions (id),
  bill_id         uuid REFERENCES bills (id),
  bank_line_id    text,
  created_by      uuid NOT NULL REFERENCES spend_users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((bill_id IS NULL) <> (bank_line_id IS NULL)),
  UNIQUE (transaction_id)
);
