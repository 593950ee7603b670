-- Issue 30: automation policies (sweeps) and their daily runs (server/domain/treasury/automation.ts).
-- A policy watches one wallet account: SWEEP_ABOVE moves what it holds above `threshold` down to
-- `target` into `target_account_id`; TOP_UP_BELOW brings it from below `threshold` up to `target`
-- out of `target_account_id` (a wallet account, or a linked bank account's EXTERNAL_BANK ledger
-- account). Amounts in minor units of `currency`, the accounts' currency.
--
-- Exactly one run per policy and day: the job claims the day by inserting the automation_runs row
-- (UNIQUE (policy_id, run_day), ON CONFLICT DO NOTHING) in the transaction that starts the
-- transfer; wallet_transfers' UNIQUE (automation_policy_id, automation_run_day) is the second guard.

CREATE TABLE automation_policies (
  id                 uuid PRIMARY KEY,
  business_id        uuid NOT NULL REFERENCES businesses (id),
  kind               text NOT NULL CHECK (kind IN ('SWEEP_ABOVE', 'TOP_UP_BELOW')),
  -- The wallet account watched.
  account_id         uuid NOT NULL,
  -- Where a sweep goes, or where a top-up comes from.
  target_account_id  uuid NOT NULL,
  threshold          bigint NOT NULL CHECK (threshold > 0),
  target             bigint NOT NULL CHECK (target >= 0),
  currency           text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  enabled            boolean NOT NULL DEFAULT true,
  created_by         uuid REFERENCES spend_users (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted            boolean NOT NULL DEFAULT false,
  CHECK (account_id <> target_account_id),
  CHECK (CASE kind WHEN 'SWEEP_ABOVE' THEN target <= threshold ELSE target >= threshold END),
  FOREIGN KEY (business_id, account_id) REFERENCES ledger_accounts (business_id, id),
  FOREIGN KEY (business_id, target_account_id) REFERENCES ledger_accounts (business_id, id),
  UNIQUE (business_id, id)
);
-- One live policy of a kind per watched account (two sweeps of one account would move its excess twice).
CREATE UNIQUE INDEX automation_policies_one_per_account ON automation_policies (business_id, account_id, kind) WHERE NOT deleted;
CREATE INDEX automation_policies_live ON automation_policies (business_id, created_at) WHERE NOT deleted;

CREATE TABLE automation_runs (
  id              uuid PRIMARY KEY,
  business_id     uuid NOT NULL,
  policy_id       uuid NOT NULL,
  -- The UTC day the run counts for (the job's clock).
  run_day         date NOT NULL,
  status          text NOT NULL CHECK (status IN ('MOVED', 'NOTHING_TO_DO', 'FAILED')),
  transfer_id     uuid,
  -- What was moved (MOVED) or would have been (FAILED); minor units of `currency`.
  amount          bigint CHECK (amount > 0),
  currency        text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  failure_reason  text CHECK (length(failure_reason) BETWEEN 1 AND 500),
  acknowledged_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (policy_id, run_day),
  FOREIGN KEY (business_id, policy_id) REFERENCES automation_policies (business_id, id),
  FOREIGN KEY (business_id, transfer_id) REFERENCES wallet_transfers (business_id, id),
  CHECK ((status = 'MOVED') = (transfer_id IS NOT NULL)),
  CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL)),
  CHECK (status = 'FAILED' OR acknowledged_at IS NULL)
);
CREATE INDEX automation_runs_policy ON automation_runs (policy_id, run_day DESC);
CREATE INDEX automation_runs_unacknowledged ON automation_runs (policy_id) WHERE status = 'FAILED' AND acknowledged_at IS NULL;

-- A sweep's transfer names a policy of its own business.
ALTER TABLE wallet_transfers ADD FOREIGN KEY (business_id, automation_policy_id) REFERENCES automation_policies (business_id, id);
