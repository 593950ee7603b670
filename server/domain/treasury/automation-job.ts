import { randomUUID } from 'node:crypto';
import { DEFAULT_WALLET_SETTINGS, automationAmount, quoteTransfer, type WalletSettingsValues } from '../../../schema/treasury-rules.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import { ApiError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { lockAccounts } from '../../ledger/ledger.ts';
import { writeMirrored } from '../collections.ts';
import { REMOVED_BANK, lockLinkedBanks, startTransfer } from './transfer-core.ts';
import type { AutomationKind } from './automation.ts';

/**
 * Issue 30: the automation policies' daily run (hourly in main.ts, and `sweep-status {run: true}`
 * on demand). For each enabled policy without a run today, in its own transaction:
 *  1. lock the policy row (a PUT or DELETE in flight finishes first; a policy deleted or disabled
 *     meanwhile is skipped);
 *  2. claim the day: INSERT the automation_runs row ON CONFLICT (policy_id, run_day) DO NOTHING. A
 *     racing run (this process or another) that claimed it first wins and this one skips;
 *  3. take the transfer's seq (writeMirrored: the business row, every writer's first lock), lock
 *     both accounts in id order, read the watched balance and compute `automationAmount`
 *     (schema/treasury-rules.ts). A top-up counts transfers already on their way into the account
 *     (PENDING), so yesterday's top-up from a bank that settles tomorrow is not sent again;
 *  4. when > 0, start ONE transfer through transfer-core.ts (`automation: {policyId, runDay}`: the
 *     wallet_transfers UNIQUE (automation_policy_id, automation_run_day) is the second guard), its
 *     fee and date from quoteTransfer with the business's wallet_settings. A sweep to a bank
 *     account pays the fee out of the excess, so the account lands on its target. A refusal (not
 *     enough in the source, a bank account no longer verified) rolls back to a savepoint and
 *     records the run FAILED with the reason; the claim stays, so the day is not retried.
 */
export type RunOutcome = 'MOVED' | 'NOTHING_TO_DO' | 'FAILED' | 'SKIPPED';
export interface PolicyRunResult { policyId: string; outcome: RunOutcome; transferId: string | null; amount: number | null; reason: string | null }

/** The UTC calendar day a run at `at` counts for. */
export const runDayOf = (at: Date): string => at.toISOString().slice(0, 10);

interface LockedPolicy {
  id: string; business_id: string; kind: AutomationKind; account_id: string; target_account_id: string;
  threshold: number; target: number; currency: string; enabled: boolean; deleted: boolean;
}

async function walletSettings(tx: Queryable, businessId: string): Promise<WalletSettingsValues> {
  const rows = await tx.query<WalletSettingsValues>(
    'SELECT yield_rate_bps, external_transfer_fee::bigint AS external_transfer_fee, external_settlement_days FROM wallet_settings WHERE business_id = $1',
    [businessId],
  );
  const row = rows[0];
  return row
    ? { yield_rate_bps: Number(row.yield_rate_bps), external_transfer_fee: Number(row.external_transfer_fee), external_settlement_days: Number(row.external_settlement_days) }
    : DEFAULT_WALLET_SETTINGS;
}

/** Why a bank account cannot take part in a transfer today, or null. */
async function bankRefusal(tx: Queryable, businessId: string, bankAccountId: string | null): Promise<string | null> {
  if (!bankAccountId) return null;
  const rows = await tx.query<{ status: string; deleted: boolean }>(
    'SELECT status, deleted FROM bank_accounts WHERE business_id = $1 AND id = $2', [businessId, bankAccountId],
  );
  if (!rows[0] || rows[0].deleted) return REMOVED_BANK;
  return rows[0].status === 'VERIFIED' ? null : new ApiError('TREASURY_7007').message;
}

/** Runs one policy for `runDay` inside `tx` (see above). Safe to race with itself anywhere. */
export async function runPolicy(tx: Queryable, businessId: string, policyId: string, at: Date): Promise<PolicyRunResult> {
  const runDay = runDayOf(at);
  const skipped: PolicyRunResult = { policyId, outcome: 'SKIPPED', transferId: null, amount: null, reason: null };
  const rows = await tx.query<LockedPolicy>(
    `SELECT id, business_id, kind, account_id, target_account_id, threshold::bigint AS threshold, target::bigint AS target, currency, enabled, deleted
       FROM automation_policies WHERE business_id = $1 AND id = $2 FOR UPDATE`,
    [businessId, policyId],
  );
  const p = rows[0];
  if (!p || p.deleted || !p.enabled) return skipped;
  const runId = randomUUID();
  const claimed = await tx.query(
    `INSERT INTO automation_runs (id, business_id, policy_id, run_day, status, currency, created_at)
     VALUES ($1, $2, $3, $4::date, 'NOTHING_TO_DO', $5, $6) ON CONFLICT (policy_id, run_day) DO NOTHING RETURNING id`,
    [runId, businessId, policyId, runDay, p.currency, at.toISOString()],
  );
  if (claimed.length === 0) return skipped;
  const record = async (r: PolicyRunResult) => {
    if (r.outcome === 'NOTHING_TO_DO') return r;
    await tx.query(
      'UPDATE automation_runs SET status = $2, transfer_id = $3, amount = $4, failure_reason = $5 WHERE id = $1',
      [runId, r.outcome, r.transferId, r.amount, r.reason?.slice(0, 500) ?? null],
    );
    return r;
  };

  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    // The bank rows before the ledger accounts (transfer-core.ts lockLinkedBanks): a delete racing this run waits or is seen.
    await lockLinkedBanks(tx, businessId, [p.account_id, p.target_account_id]);
    const accounts = await lockAccounts(tx, businessId, [p.account_id, p.target_account_id]);
    const watched = accounts.get(p.account_id);
    const other = accounts.get(p.target_account_id);
    const [from, to] = p.kind === 'SWEEP_ABOVE' ? [watched, other] : [other, watched];
    const fail = (reason: string, amount: number | null = null) => record({ policyId, outcome: 'FAILED', transferId: null, amount, reason });
    const closed = await tx.query('SELECT 1 FROM ledger_accounts WHERE business_id = $1 AND id = ANY($2::uuid[]) AND deleted', [businessId, [p.account_id, p.target_account_id]]);
    if (!watched || !other || !from || !to || closed.length > 0) return fail('An account of this policy was closed.');
    const pendingIn = p.kind === 'TOP_UP_BELOW'
      ? Number((await tx.query<{ n: string }>(
        `SELECT coalesce(sum(amount), 0)::text AS n FROM wallet_transfers WHERE business_id = $1 AND to_account_id = $2 AND status = 'PENDING' AND NOT deleted`,
        [businessId, watched.id],
      ))[0]!.n)
      : 0;
    const due = automationAmount(p.kind, watched.balance + pendingIn, Number(p.threshold), Number(p.target));
    if (due <= 0) return record({ policyId, outcome: 'NOTHING_TO_DO', transferId: null, amount: null, reason: null });
    const quote = quoteTransfer({
      from: from.kind === 'EXTERNAL_BANK' ? 'bank' : 'wallet', to: to.kind === 'EXTERNAL_BANK' ? 'bank' : 'wallet',
      settings: await walletSettings(tx, businessId), today: runDay,
    });
    const amount = p.kind === 'SWEEP_ABOVE' ? due - quote.fee : due;
    if (amount <= 0) return record({ policyId, outcome: 'NOTHING_TO_DO', transferId: null, amount: null, reason: null });
    const refusal = (await bankRefusal(tx, businessId, from.bank_account_id)) ?? (await bankRefusal(tx, businessId, to.bank_account_id));
    if (refusal) return fail(refusal, amount);
    const transferId = randomUUID();
    const money = `${minorToDecimal(amount, p.currency)} ${p.currency}`;
    await tx.query('SAVEPOINT automation_transfer');
    try {
      await startTransfer(tx, {
        businessId, id: transferId, from, to, amount, fee: quote.fee,
        memo: p.kind === 'SWEEP_ABOVE' ? `Sweep of ${money} above the threshold` : `Top-up of ${money} below the threshold`,
        expectedSettlementDate: quote.expected_settlement_date, createdBy: null, automation: { policyId, runDay }, at, seq: seqs.first,
      });
      await tx.query('RELEASE SAVEPOINT automation_transfer');
    } catch (err) {
      await tx.query('ROLLBACK TO SAVEPOINT automation_transfer');
      if (err instanceof ApiError) return fail(err.message, amount);
      // The second guard: a transfer of this policy and day exists already (its run row was lost).
      if ((err as { code?: string }).code === '23505') {
        const existing = await tx.query<{ id: string; amount: string }>(
          'SELECT id, amount::text FROM wallet_transfers WHERE automation_policy_id = $1 AND automation_run_day = $2::date', [policyId, runDay],
        );
        if (existing[0]) return record({ policyId, outcome: 'MOVED', transferId: existing[0].id, amount: Number(existing[0].amount), reason: null });
      }
      throw err;
    }
    return record({ policyId, outcome: 'MOVED', transferId, amount, reason: null });
  });
}

/** The enabled policies without a run on `at`'s day (of one business, or of all), each run in its own transaction. */
export async function runDuePolicies(db: Db, at: Date, businessId?: string): Promise<{ results: PolicyRunResult[]; errors: unknown[] }> {
  const due = await duePolicies(db, at, businessId);
  const results: PolicyRunResult[] = [];
  const errors: unknown[] = [];
  for (const d of due) {
    try {
      results.push(await db.transaction((tx) => runPolicy(tx, d.business_id, d.id, at)));
    } catch (err) {
      errors.push(err);
    }
  }
  return { results, errors };
}

/**
 * Runs the business's due policies inside the caller's transaction (sweep-status {run: true}).
 * One transaction runs several policies, so it locks all of them (in id order) before the first
 * takes the business row: a job run holding one policy and waiting for the business row can then
 * never be waited on by this transaction in turn (the job's order is policy, then business).
 */
export async function runDuePoliciesIn(tx: Queryable, businessId: string, at: Date): Promise<PolicyRunResult[]> {
  await tx.query('SELECT id FROM automation_policies WHERE business_id = $1 AND enabled AND NOT deleted ORDER BY id FOR UPDATE', [businessId]);
  const due = (await duePolicies(tx, at, businessId)).map((d) => d.id).sort();
  const results: PolicyRunResult[] = [];
  for (const id of due) results.push(await runPolicy(tx, businessId, id, at));
  return results;
}

function duePolicies(db: Queryable, at: Date, businessId?: string) {
  return db.query<{ id: string; business_id: string }>(
    `SELECT p.id, p.business_id FROM automation_policies p
      WHERE p.enabled AND NOT p.deleted AND ($2::uuid IS NULL OR p.business_id = $2)
        AND NOT EXISTS (SELECT 1 FROM automation_runs r WHERE r.policy_id = p.id AND r.run_day = $1::date)
      ORDER BY p.business_id, p.created_at, p.id`,
    [runDayOf(at), businessId ?? null],
  );
}

export type SweepState = 'DUE' | 'MOVED' | 'NOTHING_TO_DO' | 'FAILED' | 'DISABLED';

/** Today's state of every live policy of the business: its run's status, else DISABLED or DUE. */
export async function sweepStatus(db: Queryable, businessId: string, at: Date): Promise<{ day: string; policies: { id: string; status: SweepState; transfer_id: string | null }[] }> {
  const day = runDayOf(at);
  const rows = await db.query<{ id: string; enabled: boolean; status: SweepState | null; transfer_id: string | null }>(
    `SELECT p.id, p.enabled, r.status, r.transfer_id FROM automation_policies p
       LEFT JOIN automation_runs r ON r.policy_id = p.id AND r.run_day = $2::date
      WHERE p.business_id = $1 AND NOT p.deleted ORDER BY p.created_at, p.id`,
    [businessId, day],
  );
  return {
    day,
    policies: rows.map((r) => ({ id: r.id, status: r.status ?? (r.enabled ? 'DUE' : 'DISABLED'), transfer_id: r.transfer_id })),
  };
}

/** The job in a server process (main.ts): at start and every `everyMs`; a policy's failure is reported and the others run. */
export const startAutomationJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob(async (now) => {
    const { errors } = await runDuePolicies(db, now);
    for (const err of errors) opts.onError(err);
  }, opts);
