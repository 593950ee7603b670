import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/db.ts';
import { ApiError } from '../core/errors.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../core/periodic-job.ts';
import { postEntry, systemAccount } from '../ledger/ledger.ts';
import { payOut, payingAccount } from './operating-payments.ts';

/**
 * Issue 30: card spend settles with the card network through the ledger (migration 059). Once a
 * day D is SETTLEMENT_LAG_DAYS (3) old, the net of that day's CLEARED card transactions of a
 * business and currency (a refund's negative amount nets in) moves from the primary OPERATING
 * account of that currency to CARD_NETWORK; a negative net moves back. Key
 * `card-settlement:<currency>:<D>`; one `card_settlements` row per (business, currency, day):
 * SETTLED once posted, or FAILED with the TREASURY_7004 reason while the account cannot cover it
 * (the next run tries again; a SETTLED day is never settled twice).
 *
 * Days before the business's primary operating account of the currency was opened were settled
 * outside Ledgerline and are left alone; so is a currency with no such account. The net is taken
 * when the day settles: a transaction of that day cleared or changed afterwards is not re-settled.
 *
 * Safe with several runners and server processes: candidates are read without locks; each day
 * then runs in its own transaction that takes the business row first (the lock every mirrored
 * writer takes first, and the one the OPERATING posting's seq needs), re-reads the day's row under
 * it and recomputes the net; the entry key and the row's UNIQUE hold underneath.
 * `card-settlement.pg.test.ts` races two runners over two pools.
 */

const SETTLEMENT_LAG_DAYS = 3;
const BATCH = 200;
const MAX_BATCHES = 20;

type CardSettlementRun = { settled: number; failed: number };

/** The last day a run on `now` settles: D such that D + 3 days ≤ today (UTC). */
export function lastSettleableDay(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - SETTLEMENT_LAG_DAYS * 86_400_000);
  return d.toISOString().slice(0, 10);
}

const DAY_SQL = `(t.occurred_at AT TIME ZONE 'UTC')::date`;

/** Settles every due day of every business once; answers how many days it settled and failed. */
export async function settleCardSpend(db: Db, now: Date): Promise<CardSettlementRun> {
  const run: CardSettlementRun = { settled: 0, failed: 0 };
  const lastDay = lastSettleableDay(now);
  const tried = new Set<string>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await db.query<{ business_id: string; currency: string; day: string }>(
      `SELECT t.business_id::text, t.currency, to_char(${DAY_SQL}, 'YYYY-MM-DD') AS day
         FROM transactions t
         JOIN ledger_accounts a ON a.business_id = t.business_id AND a.kind = 'OPERATING' AND a.is_primary AND NOT a.deleted
                               AND a.currency = t.currency
        WHERE t.state = 'CLEARED' AND NOT t.deleted AND ${DAY_SQL} <= $1::date
          AND ${DAY_SQL} >= (a.created_at AT TIME ZONE 'UTC')::date
          AND NOT EXISTS (SELECT 1 FROM card_settlements s WHERE s.business_id = t.business_id AND s.currency = t.currency
                             AND s.day = ${DAY_SQL} AND (s.status = 'SETTLED' OR s.id = ANY($3::uuid[])))
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 LIMIT $2`,
      [lastDay, BATCH, [...tried]],
    );
    for (const d of due) {
      const outcome = await db.transaction((tx) => settleDay(tx, d.business_id, d.currency, d.day, now));
      if (outcome.status === 'SETTLED') run.settled++;
      else if (outcome.status === 'FAILED') run.failed++;
      // A failed day waits for the next run; a day another runner settled is skipped.
      if (outcome.id) tried.add(outcome.id);
    }
    if (due.length < BATCH) break;
  }
  return run;
}

type DayOutcome = { status: 'SETTLED' | 'FAILED' | 'SKIPPED'; id: string | null };

/** One business, currency and day, in the caller's transaction: posted once, or recorded FAILED. */
async function settleDay(tx: Queryable, businessId: string, currency: string, day: string, now: Date): Promise<DayOutcome> {
  const [business] = await tx.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);
  if (!business) return { status: 'SKIPPED', id: null };
  const [row] = await tx.query<{ id: string; status: string }>(
    'SELECT id::text, status FROM card_settlements WHERE business_id = $1 AND currency = $2 AND day = $3::date FOR UPDATE',
    [businessId, currency, day],
  );
  if (row?.status === 'SETTLED') return { status: 'SKIPPED', id: row.id };
  const [sum] = await tx.query<{ net: string; n: number }>(
    `SELECT coalesce(sum(t.amount), 0)::text AS net, count(*)::int AS n FROM transactions t
      WHERE t.business_id = $1 AND t.currency = $2 AND t.state = 'CLEARED' AND NOT t.deleted AND ${DAY_SQL} = $3::date`,
    [businessId, currency, day],
  );
  const net = Number(sum!.net);
  const id = row?.id ?? randomUUID();
  const key = `card-settlement:${currency}:${day}`;
  const at = now.toISOString();
  let entryId: string | null = null;
  try {
    if (net > 0) {
      entryId = await payOut(tx, {
        businessId, currency, amount: net, to: 'CARD_NETWORK', kind: 'CARD_SETTLEMENT', key, at: now, effectiveDate: day,
        memo: `Card settlement for ${day}`, source: { type: 'card_settlement', id },
      });
    } else if (net < 0) {
      const operating = await payingAccount(tx, businessId, currency, 0);
      const network = await systemAccount(tx, businessId, 'CARD_NETWORK', currency);
      entryId = (await postEntry(tx, {
        businessId, kind: 'CARD_SETTLEMENT', key, currency, at: now, effectiveDate: day, memo: `Card settlement (refunds) for ${day}`,
        source: { type: 'card_settlement', id }, lines: [{ account: network, amount: net }, { account: operating.id, amount: -net }],
      })).id;
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const reason = err.body.error_v2.message.slice(0, 500);
    await tx.query(
      `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, failure_reason, created_at, updated_at)
       VALUES ($1, $2, $3, $4::date, $5, $6, 'FAILED', $7, $8, $8)
       ON CONFLICT (business_id, currency, day) DO UPDATE
         SET net = EXCLUDED.net, transactions = EXCLUDED.transactions, failure_reason = EXCLUDED.failure_reason,
             attempts = card_settlements.attempts + 1, updated_at = EXCLUDED.updated_at
       WHERE card_settlements.status = 'FAILED'`,
      [id, businessId, currency, day, net, sum!.n, reason, at],
    );
    return { status: 'FAILED', id };
  }
  await tx.query(
    `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, entry_id, settled_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4::date, $5, $6, 'SETTLED', $7, $8, $8, $8)
     ON CONFLICT (business_id, currency, day) DO UPDATE
       SET net = EXCLUDED.net, transactions = EXCLUDED.transactions, status = 'SETTLED', failure_reason = NULL,
           entry_id = EXCLUDED.entry_id, settled_at = EXCLUDED.settled_at, attempts = card_settlements.attempts + 1,
           updated_at = EXCLUDED.updated_at
     WHERE card_settlements.status = 'FAILED'`,
    [id, businessId, currency, day, net, sum!.n, entryId, at],
  );
  return { status: 'SETTLED', id };
}

/** The job in a server process: at start and every `everyMs`; one run at a time per process. */
export const startCardSettlementJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob =>
  startPeriodicJob((now) => settleCardSpend(db, now), opts);
