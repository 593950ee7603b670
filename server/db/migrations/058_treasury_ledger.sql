-- Issue 30: the double-entry ledger every money movement posts through, the wallet's accounts
-- (mirrored as `wallet_accounts`), transfers between them (mirrored as `wallet_transfers`) and
-- the external bank accounts a business links (the source or target of a transfer).
--
-- The database keeps the ledger's rules, not only the code (server/ledger/):
--   * every journal entry balances: per entry and currency the postings sum to zero, checked by a
--     deferred constraint trigger at commit (so an entry's postings go in one by one, and a
--     transaction that leaves one unbalanced cannot commit);
--   * postings and entries are immutable (a correction is a new, reversing entry);
--   * an account's `balance` is the sum of its postings, kept by the posting trigger and by
--     nothing else (a direct UPDATE of balance is refused), and an account that may not go
--     negative (the wallet's) cannot: CHECK (allow_negative OR balance >= 0) refuses an overdraft
--     whatever the code does;
--   * a posting's currency and business are its account's;
--   * `ledger_daily_balances` holds each account's closing balance per day of activity (the
--     balance chart), kept by the same trigger.
-- `npm run ledger:check` (server/ledger/check.ts) proves the sums and the cached balances.
--
-- Sign: a posting's amount is what the account gains (+) or loses (−) in minor units. Wallet
-- accounts hold positive balances; system accounts (the outside world, fees, in-flight clearing)
-- carry the other side and may go negative.

CREATE TABLE ledger_accounts (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  kind            text NOT NULL CHECK (kind IN (
                    -- The wallet (mirrored as wallet_accounts; never negative).
                    'OPERATING', 'RESERVE', 'INVESTMENT',
                    -- A linked bank account outside Ledgerline (bank_accounts.ledger_account_id).
                    'EXTERNAL_BANK',
                    -- A flex (float) credit line: negative while drawn.
                    'FLEX_LINE',
                    -- Clearing: money on its way (a pending transfer's hold, a sent bill payment).
                    'TRANSFERS_IN_FLIGHT', 'PAYMENTS_IN_FLIGHT',
                    -- Counterparties and results outside the wallet.
                    'CARD_NETWORK', 'VENDOR_PAYMENTS', 'EMPLOYEE_PAYMENTS', 'FEES', 'YIELD', 'FUNDING')),
  currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  balance         bigint NOT NULL DEFAULT 0,
  allow_negative  boolean NOT NULL,
  -- Wallet accounts only: which one is the business's primary account of its kind and currency
  -- (bill payments, claims and card settlements draw on the primary OPERATING account).
  is_primary      boolean NOT NULL DEFAULT false,
  bank_account_id uuid,
  created_at      timestamptz NOT NULL DEFAULT now(),
  -- Mirrored columns, set for the wallet kinds only (system accounts are never on the wire; the
  -- feed's `change_seq > n` never matches their NULL).
  change_seq      bigint,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted         boolean NOT NULL DEFAULT false,
  CONSTRAINT ledger_accounts_no_overdraft CHECK (allow_negative OR balance >= 0),
  CHECK ((kind IN ('OPERATING', 'RESERVE', 'INVESTMENT')) = (change_seq IS NOT NULL)),
  CHECK ((kind IN ('OPERATING', 'RESERVE', 'INVESTMENT')) OR NOT is_primary),
  CHECK ((kind = 'EXTERNAL_BANK') = (bank_account_id IS NOT NULL)),
  UNIQUE (business_id, id)
);
CREATE INDEX ledger_accounts_feed ON ledger_accounts (business_id, change_seq) WHERE change_seq IS NOT NULL;
-- One system account per business, kind and currency (systemAccount() gets or creates it).
CREATE UNIQUE INDEX ledger_accounts_system ON ledger_accounts (business_id, kind, currency)
  WHERE kind NOT IN ('OPERATING', 'RESERVE', 'INVESTMENT', 'EXTERNAL_BANK');
-- One primary wallet account per business, kind and currency.
CREATE UNIQUE INDEX ledger_accounts_primary ON ledger_accounts (business_id, kind, currency) WHERE is_primary AND NOT deleted;
CREATE UNIQUE INDEX ledger_accounts_bank ON ledger_accounts (bank_account_id) WHERE bank_account_id IS NOT NULL;

CREATE TABLE journal_entries (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL REFERENCES businesses (id),
  -- What moved: FUNDING, TRANSFER_HOLD, TRANSFER_SETTLE, TRANSFER_RELEASE, BILL_PAYMENT_SEND,
  -- BILL_PAYMENT_SETTLE, BILL_PAYMENT_RETURN, REIMBURSEMENT_PAYMENT, REIMBURSEMENT_REVERSAL,
  -- CARD_SETTLEMENT, YIELD_ACCRUAL, FLEX_DRAW, FLEX_INSTALLMENT, ... (server/ledger/ledger.ts).
  kind            text NOT NULL CHECK (kind ~ '^[A-Z][A-Z_]{1,59}$'),
  -- The movement's identity: a second post with the same key is the first (exactly once).
  idem_key        text NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 200),
  memo            text NOT NULL DEFAULT '' CHECK (length(memo) <= 500),
  -- The business object it belongs to (a transfer, a bill payment, a claim, a card settlement day…).
  source_type     text,
  source_id       uuid,
  -- The bank day it counts on (the balance chart's day).
  effective_date  date NOT NULL,
  created_by      uuid REFERENCES spend_users (id),
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (business_id, idem_key),
  UNIQUE (business_id, id)
);
CREATE INDEX journal_entries_source ON journal_entries (business_id, source_type, source_id);

CREATE TABLE postings (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id  uuid NOT NULL,
  entry_id     uuid NOT NULL,
  account_id   uuid NOT NULL,
  amount       bigint NOT NULL CHECK (amount <> 0),
  currency     text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  FOREIGN KEY (business_id, entry_id) REFERENCES journal_entries (business_id, id),
  FOREIGN KEY (business_id, account_id) REFERENCES ledger_accounts (business_id, id)
);
CREATE INDEX postings_entry ON postings (entry_id);
CREATE INDEX postings_account ON postings (account_id, id);

CREATE TABLE ledger_daily_balances (
  account_id  uuid NOT NULL REFERENCES ledger_accounts (id),
  day         date NOT NULL,
  closing     bigint NOT NULL,
  PRIMARY KEY (account_id, day)
);

-- A posting's currency is its account's; the account's balance and the day's closing follow.
CREATE FUNCTION ll_ledger_post() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acct_currency text;
  new_balance bigint;
  on_day date;
BEGIN
  SELECT a.currency INTO acct_currency FROM ledger_accounts a WHERE a.id = NEW.account_id AND a.business_id = NEW.business_id;
  IF acct_currency IS DISTINCT FROM NEW.currency THEN
    RAISE EXCEPTION 'posting in % to an account kept in %', NEW.currency, acct_currency
      USING ERRCODE = 'check_violation', CONSTRAINT = 'postings_currency';
  END IF;
  SELECT e.effective_date INTO on_day FROM journal_entries e WHERE e.id = NEW.entry_id;
  UPDATE ledger_accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id RETURNING balance INTO new_balance;
  -- The closing balance of the entry's day and of every later day already recorded.
  INSERT INTO ledger_daily_balances (account_id, day, closing)
    VALUES (NEW.account_id, on_day, coalesce((SELECT d.closing FROM ledger_daily_balances d
                                            WHERE d.account_id = NEW.account_id AND d.day < on_day
                                            ORDER BY d.day DESC LIMIT 1), 0) + NEW.amount)
    ON CONFLICT (account_id, day) DO UPDATE SET closing = ledger_daily_balances.closing + NEW.amount;
  UPDATE ledger_daily_balances SET closing = closing + NEW.amount WHERE account_id = NEW.account_id AND ledger_daily_balances.day > on_day;
  RETURN NULL;
END $$;
CREATE TRIGGER postings_post AFTER INSERT ON postings FOR EACH ROW EXECUTE FUNCTION ll_ledger_post();

-- Every entry balances per currency and has at least two postings, checked at commit.
CREATE FUNCTION ll_ledger_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  off record;
BEGIN
  SELECT p.currency, sum(p.amount) AS total, count(*) AS n INTO off
    FROM postings p WHERE p.entry_id = NEW.entry_id
   GROUP BY p.currency HAVING sum(p.amount) <> 0 OR count(*) < 2 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'journal entry % does not balance in % (sum %, % postings)', NEW.entry_id, off.currency, off.total, off.n
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entries_balanced';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ll_ledger_entry_balanced();

-- An entry with no postings at all is refused at commit too.
CREATE FUNCTION ll_ledger_entry_has_postings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = NEW.id) THEN
    RAISE EXCEPTION 'journal entry % has no postings', NEW.id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'journal_entries_balanced';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER journal_entries_have_postings AFTER INSERT ON journal_entries DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ll_ledger_entry_has_postings();

CREATE FUNCTION ll_ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never changed or deleted: post a reversing entry', TG_TABLE_NAME
    USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_immutable';
END $$;
CREATE TRIGGER postings_immutable BEFORE UPDATE OR DELETE ON postings FOR EACH ROW EXECUTE FUNCTION ll_ledger_immutable();
CREATE TRIGGER journal_entries_immutable BEFORE UPDATE OR DELETE ON journal_entries FOR EACH ROW EXECUTE FUNCTION ll_ledger_immutable();

-- `balance` moves only by a posting (the posting trigger runs at depth 1, its UPDATE's trigger at
-- depth 2); a wallet account whose balance moves takes a fresh seq from the business counter (as
-- migration 046 does for allocations) so every mirror sees the new balance.
CREATE FUNCTION ll_ledger_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seq bigint;
BEGIN
  IF NEW.balance IS DISTINCT FROM OLD.balance THEN
    IF pg_trigger_depth() < 2 THEN
      RAISE EXCEPTION 'an account balance changes only by posting'
        USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_balance_by_postings';
    END IF;
  END IF;
  IF NEW.currency IS DISTINCT FROM OLD.currency OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.business_id IS DISTINCT FROM OLD.business_id THEN
    RAISE EXCEPTION 'an account keeps its business, kind and currency'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_account_fixed';
  END IF;
  IF NEW.kind IN ('OPERATING', 'RESERVE', 'INVESTMENT') AND NEW.balance IS DISTINCT FROM OLD.balance
     AND NEW.change_seq IS NOT DISTINCT FROM OLD.change_seq THEN
    UPDATE businesses SET change_seq = change_seq + 1 WHERE id = NEW.business_id RETURNING change_seq INTO seq;
    NEW.change_seq := seq;
    NEW.updated_at := now();
    PERFORM pg_notify('ledgerline_changes', json_build_object('business_id', NEW.business_id, 'seq', seq)::text);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ledger_accounts_guard BEFORE UPDATE ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ll_ledger_account_guard();

-- A bank account outside Ledgerline the business links (issue 30 "Banking links"): the source or
-- target of a transfer. The account number is encrypted at rest (server/auth/vendor-bank-crypto.ts)
-- and shown masked; revealing or changing it needs step-up. Verified by two micro-deposits.
CREATE TABLE bank_accounts (
  id                   uuid PRIMARY KEY,
  business_id          uuid NOT NULL REFERENCES businesses (id),
  entity_id            uuid REFERENCES business_entities (id),
  name                 text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  bank_name            text NOT NULL DEFAULT '' CHECK (length(bank_name) <= 100),
  account_type         text NOT NULL CHECK (account_type IN ('CHECKING', 'SAVINGS')),
  routing_number       text NOT NULL CHECK (routing_number ~ '^[0-9]{9}$'),
  account_number_enc   text NOT NULL,
  account_last4        text NOT NULL CHECK (account_last4 ~ '^[0-9]{4}$'),
  currency             text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  status               text NOT NULL CHECK (status IN ('UNVERIFIED', 'PENDING_VERIFICATION', 'VERIFIED', 'FAILED')),
  verified_at          timestamptz,
  created_by           uuid REFERENCES spend_users (id),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted              boolean NOT NULL DEFAULT false,
  CHECK ((status = 'VERIFIED') = (verified_at IS NOT NULL)),
  UNIQUE (business_id, id)
);
CREATE INDEX bank_accounts_business ON bank_accounts (business_id, created_at) WHERE NOT deleted;
ALTER TABLE ledger_accounts ADD FOREIGN KEY (business_id, bank_account_id) REFERENCES bank_accounts (business_id, id);

-- A transfer (mirrored as wallet_transfers): from a wallet account to another or to a linked bank
-- account, or from a linked bank account into the wallet. Creating it posts the hold (amount plus
-- fee leave the source for TRANSFERS_IN_FLIGHT at once); settling posts the amount to the target
-- and the fee to FEES; canceling (before settlement) or failing releases the hold back.
CREATE TABLE wallet_transfers (
  id                        uuid PRIMARY KEY,
  business_id               uuid NOT NULL REFERENCES businesses (id),
  from_account_id           uuid NOT NULL,
  to_account_id             uuid NOT NULL,
  amount                    bigint NOT NULL CHECK (amount > 0),
  fee                       bigint NOT NULL CHECK (fee >= 0),
  currency                  text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  memo                      text NOT NULL DEFAULT '' CHECK (length(memo) <= 200),
  status                    text NOT NULL CHECK (status IN ('PENDING', 'SETTLED', 'CANCELED', 'FAILED')),
  expected_settlement_date  date NOT NULL,
  settled_at                timestamptz,
  canceled_at               timestamptz,
  failed_at                 timestamptz,
  failure_reason            text,
  -- Who asked (null: an automation policy's run).
  created_by                uuid REFERENCES spend_users (id),
  -- A sweep's transfer: its policy and run day, one per policy per day (UNIQUE below).
  automation_policy_id      uuid,
  automation_run_day        date,
  created_at                timestamptz NOT NULL DEFAULT now(),
  change_seq                bigint NOT NULL,
  updated_at                timestamptz NOT NULL DEFAULT now(),
  deleted                   boolean NOT NULL DEFAULT false,
  CHECK (from_account_id <> to_account_id),
  CHECK ((status = 'SETTLED') = (settled_at IS NOT NULL)),
  CHECK ((status = 'CANCELED') = (canceled_at IS NOT NULL)),
  CHECK ((status = 'FAILED') = (failed_at IS NOT NULL)),
  CHECK ((automation_policy_id IS NULL) = (automation_run_day IS NULL)),
  FOREIGN KEY (business_id, from_account_id) REFERENCES ledger_accounts (business_id, id),
  FOREIGN KEY (business_id, to_account_id) REFERENCES ledger_accounts (business_id, id),
  UNIQUE (automation_policy_id, automation_run_day),
  UNIQUE (business_id, id)
);
CREATE INDEX wallet_transfers_feed ON wallet_transfers (business_id, change_seq);
CREATE INDEX wallet_transfers_due ON wallet_transfers (expected_settlement_date) WHERE status = 'PENDING';

-- Wallet settings per business (calls-treasury.ts walletSettingsSchema); no row = the defaults.
-- The fee schedule is the server's (schema/treasury-rules.ts quoteTransfer reads it).
CREATE TABLE wallet_settings (
  business_id               uuid PRIMARY KEY REFERENCES businesses (id),
  yield_rate_bps            integer NOT NULL DEFAULT 0 CHECK (yield_rate_bps BETWEEN 0 AND 2000),
  external_transfer_fee     bigint NOT NULL DEFAULT 0 CHECK (external_transfer_fee BETWEEN 0 AND 100000),
  external_settlement_days  integer NOT NULL DEFAULT 1 CHECK (external_settlement_days BETWEEN 0 AND 5),
  updated_by                uuid REFERENCES spend_users (id),
  updated_at                timestamptz NOT NULL DEFAULT now()
);
