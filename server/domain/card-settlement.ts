import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';
import { ApiError } from '../core/errors.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../core/periodic-job.ts';
import { postEntry, systemAccount } from '../ledger/ledger.ts';
import { payOut, payingAccount } from './operating-payments.ts';

/**
 * Issue 30: card spend settles with the card network through the ledger, each charge exactly once
 * (migrations 059, 067). A settlement is a batch per business and currency: every CLEARED charge
 * no settlement covers yet whose UTC day is SETTLEMENT_LAG_DAYS (3) old — or, once the unpaid
 * balance reaches the business's autopay threshold in that currency (`card-autopay.ts`), every one
 * of them at once — netted (a refund is its own negative charge and nets in) and moved from the
 * primary OPERATING account of the currency to CARD_NETWORK (a negative net moves back), key
 * `card-settlement:<settlement id>`, its charges inserted into `card_settlement_items` in the same
 * transaction. A charge that clears late is simply unsettled: the next run takes it.
 *
 * A batch OPERATING cannot cover is recorded FAILED with the TREASURY_7004 reason and no items: its
 * charges stay unsettled, and the next run retries them (with whatever else became due) as the same
 * open row (`attempts` + 1; at most one FAILED row per business and currency).
 *
 * Charges before the primary operating account of the currency was opened were settled outside
 * Ledgerline and are left alone; so is a currency with no such account.
 *
 * What settled is the item's `amount`: a settled charge whose amount or state changes afterwards is
 * not settled again (no path of the product does that: a partial refund or a reversal reaches the
 * card network, and here, as a separate negative transaction, which settles as its own item).
 *
 * Safe with several runners and server processes: candidates are read without locks; each
 * business and currency then runs in its own transaction that takes the business row first (the
 * lock every mirrored writer takes first, and the one the OPERATING posting's seq needs) and reads
 * the unsettled charges under it, so a runner that waited sees the items the first one committed;
 * the items' primary key and the entry key hold underneath. `card-settlement.pg.test.ts` races two
 * runners over two pools.
 */

const SETTLEMENT_LAG_DAYS = 3;
const PAIRS_PAGE = 500;

type CardSettlementRun = { settled: number; failed: number };
type SettlementCause = 'AGED' | 'AUTOPAY';

/** The last charge day a run on `now` settles by age: D such that D + 3 days ≤ today (UTC). */
export function lastSettleableDay(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - SETTLEMENT_LAG_DAYS * 86_400_000);
  return d.toISOString().slice(0, 10);
}

const DAY_SQL = `(t.occurred_at AT TIME ZONE 'UTC')::date`;

/**
 * The charges no settlement covers yet (CLEARED, not deleted, on or after the day the primary
 * operating account of the currency was opened), as the FROM/WHERE of a query over `t`, joined to
 * that account `a` and the business's autopay setting `w` (of that currency, else no row).
 */
export const UNSETTLED_CHARGES_SQL = `
  transactions t
  JOIN ledger_accounts a ON a.business_id = t.business_id AND a.kind = 'OPERATING' AND a.is_primary AND NOT a.deleted
                        AND a.currency = t.currency
  LEFT JOIN wallet_settings w ON w.business_id = t.business_id AND w.card_autopay_currency = t.currency
 WHERE t.state = 'CLEARED' AND NOT t.deleted AND ${DAY_SQL} >= (a.created_at AT TIME ZONE 'UTC')::date
   AND NOT EXISTS (SELECT 1 FROM card_settlement_items i WHERE i.business_id = t.business_id AND i.transaction_id = t.id)`;

/** Settles every business and currency with something due (`only`: one business, as a PUT of the threshold asks); answers how many batches settled and failed. */
export async function settleCardSpend(db: Db, now: Date, only?: { businessId: string }): Promise<CardSettlementRun> {
  const run: CardSettlementRun = { settled: 0, failed: 0 };
  let after: [string, string] = ['00000000-0000-0000-0000-000000000000', ''];
  for (;;) {
    // Due: a charge three days old, or an unpaid total at the threshold. Keyset over (business, currency).
    const due = await db.query<{ business_id: string; currency: string }>(
      `SELECT t.business_id::text, t.currency FROM ${UNSETTLED_CHARGES_SQL}
          AND (t.business_id, t.currency) > ($2::uuid, $3::text) AND ($5::uuid IS NULL OR t.business_id = $5::uuid)
        GROUP BY t.business_id, t.currency, w.card_autopay_threshold
       HAVING min(${DAY_SQL}) <= $1::date OR sum(t.amount) >= w.card_autopay_threshold
        ORDER BY 1, 2 LIMIT $4`,
      [lastSettleableDay(now), after[0], after[1], PAIRS_PAGE, only?.businessId ?? null],
    );
    for (const d of due) {
      const outcome = await db.transaction((tx) => settleBatch(tx, d.business_id, d.currency, now));
      if (outcome === 'SETTLED') run.settled++;
      else if (outcome === 'FAILED') run.failed++;
    }
    if (due.length < PAIRS_PAGE) return run;
    const last = due.at(-1)!;
    after = [last.business_id, last.currency];
  }
}

type Charge = { id: string; amount: number; day: string };

/** The unsettled charges of one business and currency (read under the business row lock), and the threshold. */
async function unsettled(tx: Queryable, businessId: string, currency: string): Promise<{ charges: Charge[]; threshold: number | null }> {
  const rows = await tx.query<{ id: string; amount: string; day: string; threshold: string | null }>(
    `SELECT t.id::text, t.amount::text, to_char(${DAY_SQL}, 'YYYY-MM-DD') AS day, w.card_autopay_threshold::text AS threshold
       FROM ${UNSETTLED_CHARGES_SQL} AND t.business_id = $1 AND t.currency = $2
      ORDER BY t.occurred_at, t.id`,
    [businessId, currency],
  );
  // Every row carries the setting (a business has one); no rows, nothing to settle either way.
  const threshold = rows[0]?.threshold ?? null;
  return { charges: rows.map((r) => ({ id: r.id, amount: Number(r.amount), day: r.day })), threshold: threshold === null ? null : Number(threshold) };
}

/** Which of the unsettled charges settle now, and why: all of them at the threshold, else those three days old. */
export function chooseBatch(charges: readonly Charge[], threshold: number | null, lastDay: string): { cause: SettlementCause; charges: Charge[] } {
  const total = charges.reduce((s, c) => s + c.amount, 0);
  if (threshold !== null && charges.length > 0 && total >= threshold) return { cause: 'AUTOPAY', charges: [...charges] };
  return { cause: 'AGED', charges: charges.filter((c) => c.day <= lastDay) };
}

/**
 * One business and currency, in the caller's transaction: the due charges posted once as a batch
 * with its items, or the open batch recorded FAILED (no items); SKIPPED when nothing is due (a
 * racing runner settled it, or no primary operating account).
 */
async function settleBatch(tx: Queryable, businessId: string, currency: string, now: Date): Promise<'SETTLED' | 'FAILED' | 'SKIPPED'> {
  const [business] = await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
  if (!business) return 'SKIPPED';
  const { charges: all, threshold } = await unsettled(tx, businessId, currency);
  const { cause, charges } = chooseBatch(all, threshold, lastSettleableDay(now));
  if (charges.length === 0) return 'SKIPPED';
  const [open] = await tx.query<{ id: string }>(
    `SELECT id::text FROM card_settlements WHERE business_id = $1 AND currency = $2 AND status = 'FAILED' FOR UPDATE`, [businessId, currency]);
  const id = open?.id ?? randomUUID();
  const net = charges.reduce((s, c) => s + c.amount, 0);
  const day = now.toISOString().slice(0, 10);
  const batch = { id, businessId, currency, day, net, n: charges.length, cause, at: now.toISOString() };
  let entryId: string | null;
  try {
    entryId = await postBatch(tx, batch, charges, now);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await recordBatch(tx, batch, { status: 'FAILED', reason: err.body.error_v2.message.slice(0, 500) });
    return 'FAILED';
  }
  await recordBatch(tx, batch, { status: 'SETTLED', entryId });
  await tx.query(
    `INSERT INTO card_settlement_items (business_id, settlement_id, transaction_id, amount)
     SELECT $1, $2, unnest($3::uuid[]), unnest($4::bigint[])`,
    [businessId, id, charges.map((c) => c.id), charges.map((c) => c.amount)],
  );
  return 'SETTLED';
}

type Batch = { id: string; businessId: string; currency: string; day: string; net: number; n: number; cause: SettlementCause; at: string };

/** The batch's one entry (none for a zero net): OPERATING → CARD_NETWORK, or back for a negative net. */
async function postBatch(tx: Queryable, b: Batch, charges: readonly Charge[], now: Date): Promise<string | null> {
  const key = `card-settlement:${b.id}`;
  const through = charges.reduce((max, c) => (c.day > max ? c.day : max), charges[0]!.day);
  const what = `${b.n} card ${b.n === 1 ? 'charge' : 'charges'} through ${through}`;
  const memo = b.cause === 'AUTOPAY' ? `Card autopay: ${what}` : `Card settlement: ${what}`;
  const source = { type: 'card_settlement', id: b.id };
  if (b.net > 0) {
    return payOut(tx, {
      businessId: b.businessId, currency: b.currency, amount: b.net, to: 'CARD_NETWORK', kind: 'CARD_SETTLEMENT', key, at: now,
      effectiveDate: b.day, memo, source,
    });
  }
  if (b.net === 0) return null;
  const operating = await payingAccount(tx, b.businessId, b.currency, 0);
  const network = await systemAccount(tx, b.businessId, 'CARD_NETWORK', b.currency);
  return (await postEntry(tx, {
    businessId: b.businessId, kind: 'CARD_SETTLEMENT', key, currency: b.currency, at: now, effectiveDate: b.day, memo: `${memo} (refunds)`,
    source, lines: [{ account: network, amount: b.net }, { account: operating.id, amount: -b.net }],
  })).id;
}

/** The batch's row: inserted, or the open FAILED row of the business and currency updated (attempts + 1). */
async function recordBatch(tx: Queryable, b: Batch, outcome: { status: 'SETTLED'; entryId: string | null } | { status: 'FAILED'; reason: string }): Promise<void> {
  const settled = outcome.status === 'SETTLED';
  await tx.query(
    `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, failure_reason, entry_id, settled_at, cause, created_at, updated_at)
     VALUES ($1, $2, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, $12)
     ON CONFLICT (id) DO UPDATE
       SET day = EXCLUDED.day, net = EXCLUDED.net, transactions = EXCLUDED.transactions, status = EXCLUDED.status,
           failure_reason = EXCLUDED.failure_reason, entry_id = EXCLUDED.entry_id, settled_at = EXCLUDED.settled_at, cause = EXCLUDED.cause,
           attempts = card_settlements.attempts + 1, updated_at = EXCLUDED.updated_at
     WHERE card_settlements.status = 'FAILED'`,
    [b.id, b.businessId, b.currency, b.day, b.net, b.n, outcome.status, settled ? null : outcome.reason,
      settled ? outcome.entryId : null, settled ? b.at : null, b.cause, b.at],
  );
}

/** The job in a server process: at start and every `everyMs`; one run at a time per process. */
export const startCardSettlementJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => settleCardSpend(db, now), opts);
