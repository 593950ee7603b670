-- Issue 30 (h-transfers): the investment account's daily yield, exactly once per account and day.
-- The daily job (server/domain/treasury/yield.ts) records each day it accrued (also a day whose
-- yield rounds to zero, so it is never computed again) and posts YIELD → INVESTMENT with the
-- ledger key `yield:<account>:<day>`; the primary key here and the entry key both hold it when two
-- server processes run the job at once.
CREATE TABLE yield_accruals (
  account_id    uuid NOT NULL,
  day           date NOT NULL,
  business_id   uuid NOT NULL,
  -- The closing balance the yield was computed on, the rate, and the yield (minor units, ≥ 0).
  balance       bigint NOT NULL,
  rate_bps      integer NOT NULL CHECK (rate_bps BETWEEN 0 AND 2000),
  amount        bigint NOT NULL CHECK (amount >= 0),
  entry_id      uuid,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, day),
  FOREIGN KEY (business_id, account_id) REFERENCES ledger_accounts (business_id, id),
  FOREIGN KEY (business_id, entry_id) REFERENCES journal_entries (business_id, id),
  CHECK ((amount = 0) = (entry_id IS NULL))
);
CREATE INDEX yield_accruals_business ON yield_accruals (business_id, account_id, day);

-- The settlement job reads PENDING transfers due by day; the /actions page reads an account's postings newest first.
CREATE INDEX wallet_transfers_list ON wallet_transfers (business_id, from_account_id, created_at DESC, id DESC);
CREATE INDEX wallet_transfers_list_to ON wallet_transfers (business_id, to_account_id, created_at DESC, id DESC);
