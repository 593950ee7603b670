import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AutomationPolicy, automationPolicyBodySchema } from '../../../schema/api/calls-treasury.ts';
import { minorToDecimal } from '../../../schema/money.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { WALLET_KINDS, type LedgerAccount } from '../../ledger/ledger.ts';

/**
 * Issue 30: automation policies (sweeps), table `automation_policies` (migration 061). A policy
 * watches one wallet account (`account_id`); its other side (`target_account_id`) is a wallet
 * account or a linked bank account. Both are stored as ledger account ids; the calls take and
 * answer a wallet account's uuid or the `bank_accounts` id, as the transfer calls do. The daily
 * runs are automation-job.ts's.
 */
export type AutomationKind = 'SWEEP_ABOVE' | 'TOP_UP_BELOW';
export type AutomationPolicyBody = z.infer<typeof automationPolicyBodySchema>;

/** A policy's side resolved: its ledger account, and the linked bank account behind an EXTERNAL_BANK one. */
export interface PolicySide {
  ledger: LedgerAccount;
  bank: { id: string; status: string; name: string } | null;
}

const ACCOUNT_COLUMNS = 'a.id, a.business_id, a.kind, a.currency, a.name, a.balance::bigint AS balance, a.allow_negative, a.is_primary, a.bank_account_id';
const asAccount = (r: LedgerAccount): LedgerAccount => ({ ...r, balance: Number(r.balance) });

/** The uuid a caller gave (a wallet account's, or a bank_accounts id) as a policy side, or null (none of the business's). */
export async function resolveSide(tx: Queryable, businessId: string, id: string): Promise<PolicySide | null> {
  const wallet = await tx.query<LedgerAccount>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts a
      WHERE a.business_id = $1 AND a.id = $2 AND a.kind = ANY($3::text[]) AND NOT a.deleted`,
    [businessId, id, [...WALLET_KINDS]],
  );
  if (wallet[0]) return { ledger: asAccount(wallet[0]), bank: null };
  const banks = await tx.query<{ id: string; status: string; name: string; account_last4: string; currency: string }>(
    // FOR SHARE: a delete of the bank account (which refuses while a live policy names it) waits for this write or is seen by it.
    'SELECT id, status, name, account_last4, currency FROM bank_accounts WHERE business_id = $1 AND id = $2 AND NOT deleted FOR SHARE',
    [businessId, id],
  );
  const bank = banks[0];
  if (!bank) return null;
  return { ledger: await bankLedgerAccount(tx, businessId, bank), bank: { id: bank.id, status: bank.status, name: bank.name } };
}

/**
 * A linked bank account's EXTERNAL_BANK ledger account (the outside world: it may go negative),
 * created on first use when the banking calls have not made it yet (race-safe on its unique index).
 */
async function bankLedgerAccount(tx: Queryable, businessId: string, bank: { id: string; name: string; account_last4: string; currency: string }): Promise<LedgerAccount> {
  const read = () => tx.query<LedgerAccount>(
    `SELECT ${ACCOUNT_COLUMNS} FROM ledger_accounts a WHERE a.business_id = $1 AND a.bank_account_id = $2`, [businessId, bank.id],
  );
  const found = await read();
  if (found[0]) return asAccount(found[0]);
  await tx.query(
    `INSERT INTO ledger_accounts (id, business_id, kind, currency, name, allow_negative, bank_account_id)
     VALUES ($1, $2, 'EXTERNAL_BANK', $3, $4, true, $5)
     ON CONFLICT (bank_account_id) WHERE bank_account_id IS NOT NULL DO NOTHING`,
    [randomUUID(), businessId, bank.currency, `${bank.name} ••${bank.account_last4}`.slice(0, 100), bank.id],
  );
  return asAccount((await read())[0]!);
}

/** The watched account and the other side, refused as the calls document (404, TREASURY_7002, TREASURY_7009 naming the fields). */
async function validate(tx: Queryable, businessId: string, body: AutomationPolicyBody, replacing: string | null) {
  const account = await resolveSide(tx, businessId, body.account_id);
  const other = await resolveSide(tx, businessId, body.target_account_id);
  if (!account || !other) throw new ApiError('REQUEST_7004');
  const currency = account.ledger.currency;
  const wrongCurrency: Record<string, string> = {};
  if (body.threshold.currency !== currency) wrongCurrency['threshold.currency'] = `threshold.currency must be ${currency}, the account's currency`;
  if (body.target.currency !== currency) wrongCurrency['target.currency'] = `target.currency must be ${currency}, the account's currency`;
  if (Object.keys(wrongCurrency).length > 0) {
    throw new ApiError('TREASURY_7002', `This account is kept in ${currency}: give the threshold and target in ${currency}.`, wrongCurrency);
  }
  const errors: Record<string, string> = {};
  if (account.bank) errors.account_id = 'account_id must be a wallet account (a sweep watches a balance Ledgerline keeps)';
  if (account.ledger.id === other.ledger.id) errors.target_account_id = 'target_account_id must be another account than account_id';
  else if (other.ledger.currency !== currency) errors.target_account_id = `target_account_id is kept in ${other.ledger.currency}, account_id in ${currency}`;
  else if (other.bank && other.bank.status !== 'VERIFIED') errors.target_account_id = 'target_account_id is a bank account that is not verified yet';
  const money = (n: number) => `${minorToDecimal(n, currency)} ${currency}`;
  if (body.kind === 'SWEEP_ABOVE' && body.target.amount > body.threshold.amount) {
    errors['target.amount'] = `target.amount must be at most the threshold (${money(body.threshold.amount)}): a sweep brings the balance down to it`;
  }
  if (body.kind === 'TOP_UP_BELOW' && body.target.amount < body.threshold.amount) {
    errors['target.amount'] = `target.amount must be at least the threshold (${money(body.threshold.amount)}): a top-up brings the balance up to it`;
  }
  let same: string | null = null;
  if (!errors.account_id) {
    const twin = await twinOf(tx, businessId, account.ledger.id, body.kind, replacing);
    if (twin && isRetryOf(twin, body, other.ledger.id)) same = twin.id;
    else if (twin) errors.account_id = twinError(body.kind);
  }
  if (Object.keys(errors).length > 0) throw new ApiError('TREASURY_7009', undefined, errors);
  return { account, other, currency, same };
}

const twinError = (kind: AutomationKind) => `account_id already has a ${kind} policy: change that one instead`;

interface Twin { id: string; target_account_id: string; threshold: number; target: number; enabled: boolean }

/** The live policy of `kind` on the watched account (the natural key: unique index automation_policies_one_per_account). */
async function twinOf(tx: Queryable, businessId: string, accountId: string, kind: AutomationKind, replacing: string | null): Promise<Twin | null> {
  const [row] = await tx.query<Twin>(
    `SELECT id, target_account_id, threshold::bigint AS threshold, target::bigint AS target, enabled FROM automation_policies
      WHERE business_id = $1 AND account_id = $2 AND kind = $3 AND NOT deleted AND id IS DISTINCT FROM $4`,
    [businessId, accountId, kind, replacing],
  );
  return row ?? null;
}

/** A create without `id` asking for exactly what the live policy of its natural key already is: a repeat of the same request. */
const isRetryOf = (twin: Twin, body: AutomationPolicyBody, targetLedgerId: string) =>
  body.id === undefined && twin.target_account_id === targetLedgerId && Number(twin.threshold) === body.threshold.amount
  && Number(twin.target) === body.target.amount && twin.enabled === (body.enabled ?? true);

/**
 * Creates (no `id`, or one the business has never used) or replaces the policy `id`. Another
 * business's or a deleted policy's id answers 404. Answers the policy and whether it was created.
 *
 * Exactly once. PUT is not Idempotency-Keyed (the catalogue keys POST and PATCH only), so the
 * policy's natural key holds it: one live policy per (account_id, kind), unique index
 * automation_policies_one_per_account. A create without `id` that asks for exactly what the live
 * policy of its key already is (same target account, threshold, target, enabled) is a repeat —
 * a retry after a lost answer, a second tab — and answers that policy (200, nothing written);
 * with other figures it is refused TREASURY_7009 on `account_id` (change that one instead). Two
 * such creates racing: the INSERT is ON CONFLICT DO NOTHING on that index, so the second waits for
 * the first, writes nothing and answers it the same way. With an `id` (the app mints one per new
 * policy), a repeat replaces the policy with the same values: still one.
 */
export async function putPolicy(tx: Queryable, businessId: string, userId: string, body: AutomationPolicyBody, at: Date): Promise<{ policy: AutomationPolicy; created: boolean }> {
  let replacing: string | null = null;
  if (body.id) {
    const existing = await tx.query<{ business_id: string; deleted: boolean }>(
      'SELECT business_id, deleted FROM automation_policies WHERE id = $1 FOR UPDATE', [body.id],
    );
    if (existing[0] && (existing[0].business_id !== businessId || existing[0].deleted)) throw new ApiError('REQUEST_7004');
    if (existing[0]) replacing = body.id;
  }
  const { account, other, currency, same } = await validate(tx, businessId, body, replacing);
  if (same) return { policy: (await listPolicies(tx, businessId, [same]))[0]!, created: false };
  const id = body.id ?? randomUUID();
  const values = [id, businessId, body.kind, account.ledger.id, other.ledger.id, body.threshold.amount, body.target.amount, currency, body.enabled ?? true, at.toISOString()];
  try {
    if (replacing) {
      await tx.query(
        `UPDATE automation_policies SET kind = $3, account_id = $4, target_account_id = $5, threshold = $6, target = $7, currency = $8,
                enabled = $9, updated_at = $10 WHERE business_id = $2 AND id = $1`,
        values,
      );
    } else {
      const inserted = await tx.query(
        `INSERT INTO automation_policies (id, business_id, kind, account_id, target_account_id, threshold, target, currency, enabled, created_at, updated_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)
         ON CONFLICT (business_id, account_id, kind) WHERE NOT deleted DO NOTHING RETURNING id`,
        [...values, userId],
      );
      if (inserted.length === 0) {
        // A policy of this key committed by another request since validate() read none (we waited for it).
        const twin = await twinOf(tx, businessId, account.ledger.id, body.kind, null);
        if (twin && isRetryOf(twin, body, other.ledger.id)) return { policy: (await listPolicies(tx, businessId, [twin.id]))[0]!, created: false };
        throw new ApiError('TREASURY_7009', undefined, { account_id: twinError(body.kind) });
      }
    }
  } catch (err) {
    // A policy of this kind for this account committed by another request since validate() read none.
    if ((err as { constraint?: string }).constraint === 'automation_policies_one_per_account') {
      throw new ApiError('TREASURY_7009', undefined, { account_id: twinError(body.kind) });
    }
    if ((err as { code?: string }).code === '23505') throw new ApiError('REQUEST_7004');
    throw err;
  }
  const [policy] = await listPolicies(tx, businessId, [id]);
  return { policy: policy!, created: !replacing };
}

/** Soft-deletes a live policy (its runs stay); 404 for another business's, a deleted or an unknown id. */
export async function deletePolicy(tx: Queryable, businessId: string, id: string, at: Date): Promise<void> {
  const rows = await tx.query(
    'UPDATE automation_policies SET deleted = true, enabled = false, updated_at = $3 WHERE business_id = $1 AND id = $2 AND NOT deleted RETURNING id',
    [businessId, id, at.toISOString()],
  );
  if (rows.length === 0) throw new ApiError('REQUEST_7004');
}

/** How many runs a policy's answer carries, newest first. */
export const RUNS_SHOWN = 30;

interface PolicyRow {
  id: string; kind: AutomationKind; account_id: string; target_account_id: string; threshold: number; target: number;
  currency: string; enabled: boolean; created_at: string; updated_at: string; unacknowledged_failures: number;
}
interface RunRow {
  id: string; policy_id: string; run_day: string; status: 'MOVED' | 'NOTHING_TO_DO' | 'FAILED'; transfer_id: string | null;
  amount: number | null; currency: string; failure_reason: string | null; acknowledged_at: string | null; created_at: string;
}

const ISO = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A side as the calls answer it: the bank_accounts id behind an EXTERNAL_BANK ledger account, else the wallet account's. */
const sideSql = (col: string) =>
  `(SELECT coalesce(a.bank_account_id, a.id) FROM ledger_accounts a WHERE a.business_id = p.business_id AND a.id = p.${col})`;

/** The business's live policies (or those of `ids`), oldest first, each with its last runs. */
export async function listPolicies(db: Queryable, businessId: string, ids?: readonly string[]): Promise<AutomationPolicy[]> {
  const rows = await db.query<PolicyRow>(
    `SELECT p.id, p.kind, ${sideSql('account_id')} AS account_id, ${sideSql('target_account_id')} AS target_account_id,
            p.threshold::bigint AS threshold, p.target::bigint AS target, p.currency, p.enabled,
            ${ISO('p.created_at')} AS created_at, ${ISO('p.updated_at')} AS updated_at,
            (SELECT count(*) FROM automation_runs r WHERE r.policy_id = p.id AND r.status = 'FAILED' AND r.acknowledged_at IS NULL)::int AS unacknowledged_failures
       FROM automation_policies p
      WHERE p.business_id = $1 AND NOT p.deleted AND ($2::uuid[] IS NULL OR p.id = ANY($2::uuid[]))
      ORDER BY p.created_at, p.id`,
    [businessId, ids ? [...ids] : null],
  );
  if (rows.length === 0) return [];
  const runs = await db.query<RunRow>(
    `SELECT r.id, r.policy_id, to_char(r.run_day, 'YYYY-MM-DD') AS run_day, r.status, r.transfer_id, r.amount::bigint AS amount, r.currency,
            r.failure_reason, CASE WHEN r.acknowledged_at IS NULL THEN NULL ELSE ${ISO('r.acknowledged_at')} END AS acknowledged_at,
            ${ISO('r.created_at')} AS created_at
       FROM unnest($2::uuid[]) AS p(id)
       CROSS JOIN LATERAL (SELECT * FROM automation_runs r WHERE r.business_id = $1 AND r.policy_id = p.id ORDER BY r.run_day DESC LIMIT ${RUNS_SHOWN}) r
      ORDER BY r.run_day DESC`,
    [businessId, rows.map((r) => r.id)],
  );
  return rows.map((p) => ({
    id: p.id,
    kind: p.kind,
    account_id: p.account_id,
    target_account_id: p.target_account_id,
    threshold: { amount: Number(p.threshold), currency: p.currency },
    target: { amount: Number(p.target), currency: p.currency },
    enabled: p.enabled,
    created_at: p.created_at,
    updated_at: p.updated_at,
    unacknowledged_failures: Number(p.unacknowledged_failures),
    runs: runs.filter((r) => r.policy_id === p.id).map((r) => ({
      id: r.id,
      run_day: r.run_day,
      status: r.status,
      transfer_id: r.transfer_id,
      amount: r.amount === null ? null : { amount: Number(r.amount), currency: r.currency },
      failure_reason: r.failure_reason,
      acknowledged_at: r.acknowledged_at,
      created_at: r.created_at,
    })),
  }));
}

/**
 * Marks the unacknowledged FAILED runs of the listed policies seen; answers how many. A policy
 * that is not the business's (or deleted) answers 404; nothing left to acknowledge → 409 TREASURY_7008.
 */
export async function acknowledgeFailedRuns(tx: Queryable, businessId: string, policyIds: readonly string[], at: Date): Promise<number> {
  const ids = [...new Set(policyIds)];
  const known = await tx.query<{ id: string }>(
    'SELECT id FROM automation_policies WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted', [businessId, ids],
  );
  if (known.length !== ids.length) throw new ApiError('REQUEST_7004');
  const marked = await tx.query<{ id: string }>(
    `UPDATE automation_runs SET acknowledged_at = $3
      WHERE business_id = $1 AND policy_id = ANY($2::uuid[]) AND status = 'FAILED' AND acknowledged_at IS NULL RETURNING id`,
    [businessId, ids, at.toISOString()],
  );
  if (marked.length === 0) throw new ApiError('TREASURY_7008');
  return marked.length;
}
