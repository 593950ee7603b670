import type { Db, Queryable } from '../../db/db.ts';
import { postEntry, systemAccount } from '../../ledger/ledger.ts';
import { startPeriodicJob, type PeriodicJob, type PeriodicJobOptions } from '../../core/periodic-job.ts';
import { dailyYield } from '../../../schema/treasury-rules.ts';
import type { z } from 'zod';
import type { investmentAccountSchema } from '../../../schema/api/calls-treasury.ts';
import { listWalletAccounts, lockBusiness } from './accounts.ts';
import { walletSettings } from './settings.ts';

/**
 * Issue 30: the investment account's daily yield. For every INVESTMENT account of a business whose
 * wallet_settings.yield_rate_bps is above zero, each complete UTC day (up to yesterday) earns
 * `dailyYield(closing balance of that day, rate)`, posted YIELD → INVESTMENT with the key
 * `yield:<account>:<day>` and effective on that day, and recorded in `yield_accruals` (migration
 * 060; a day whose yield rounds to zero is recorded too, so it is never reconsidered). Missed days
 * are caught up, at most the last 31 (an account's first day is the day it was opened).
 *
 * Exactly once per account and day whatever runs it: each day is one transaction that locks the
 * business row first (the lock every writer of the business takes first), then re-checks the
 * accrual record; the record's primary key and the entry key hold underneath. Two server processes
 * running the job at once post each day once (`yield.pg.test.ts`).
 */
export const MAX_CATCH_UP_DAYS = 31;
const DAY_MS = 24 * 60 * 60 * 1000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

type Candidate = { id: string; business_id: string; currency: string; opened: string; last: string | null; rate: number };

export type YieldRun = { accrued: number; days: number };

export async function accrueYield(db: Db, now: Date, businessId?: string): Promise<YieldRun> {
  const run: YieldRun = { accrued: 0, days: 0 };
  const today = isoDay(now.getTime());
  const accounts = await db.query<Candidate>(
    `SELECT a.id::text, a.business_id::text, a.currency, to_char((a.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS opened,
            (SELECT to_char(max(y.day), 'YYYY-MM-DD') FROM yield_accruals y WHERE y.account_id = a.id) AS last, s.yield_rate_bps AS rate
       FROM ledger_accounts a JOIN wallet_settings s ON s.business_id = a.business_id
      WHERE a.kind = 'INVESTMENT' AND NOT a.deleted AND s.yield_rate_bps > 0 ${businessId ? 'AND a.business_id = $1' : ''}
      ORDER BY a.business_id, a.id`,
    businessId ? [businessId] : [],
  );
  const earliest = dayMs(today) - MAX_CATCH_UP_DAYS * DAY_MS;
  for (const a of accounts) {
    const start = Math.max(earliest, a.last ? dayMs(a.last) + DAY_MS : dayMs(a.opened));
    for (let d = start; d < dayMs(today); d += DAY_MS) {
      const amount = await db.transaction((tx) => accrueDay(tx, a, isoDay(d), now));
      if (amount !== null) {
        run.days++;
        run.accrued += amount;
      }
    }
  }
  return run;
}

/** One account's one day; null when it was already accrued. */
async function accrueDay(tx: Queryable, a: Candidate, day: string, now: Date): Promise<number | null> {
  await lockBusiness(tx, a.business_id);
  const [done] = await tx.query('SELECT 1 FROM yield_accruals WHERE account_id = $1 AND day = $2::date', [a.id, day]);
  if (done) return null;
  const [rate] = await tx.query<{ rate: number }>('SELECT yield_rate_bps AS rate FROM wallet_settings WHERE business_id = $1', [a.business_id]);
  const bps = Number(rate?.rate ?? 0);
  const [closing] = await tx.query<{ closing: string }>(
    `SELECT closing::text FROM ledger_daily_balances WHERE account_id = $1 AND day <= $2::date ORDER BY day DESC LIMIT 1`, [a.id, day],
  );
  const balance = Number(closing?.closing ?? 0);
  const amount = dailyYield(balance, bps);
  let entryId: string | null = null;
  if (amount > 0) {
    const yieldAccount = await systemAccount(tx, a.business_id, 'YIELD', a.currency);
    const entry = await postEntry(tx, {
      businessId: a.business_id, kind: 'YIELD_ACCRUAL', key: `yield:${a.id}:${day}`, currency: a.currency, at: now, effectiveDate: day,
      memo: `Yield for ${day}`, lines: [{ account: yieldAccount, amount: -amount }, { account: a.id, amount }],
      source: { type: 'yield_accrual', id: a.id },
    });
    entryId = entry.id;
  }
  await tx.query(
    `INSERT INTO yield_accruals (account_id, day, business_id, balance, rate_bps, amount, entry_id, created_at)
     VALUES ($1, $2::date, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, day) DO NOTHING`,
    [a.id, day, a.business_id, balance, bps, amount, entryId, now.toISOString()],
  );
  return amount;
}

/** The daily job in a server process: at start and every `everyMs` (hourly: a new day is picked up within the hour). */
export const startYieldJob = (db: Db, opts: PeriodicJobOptions): PeriodicJob => startPeriodicJob((now) => accrueYield(db, now), opts);

type InvestmentAccount = z.infer<typeof investmentAccountSchema>;

/** `treasury.investments.list`: the INVESTMENT accounts with their rate and accrued yield. */
export async function listInvestmentAccounts(db: Queryable, businessId: string, nowMs: number): Promise<InvestmentAccount[]> {
  const accounts = await listWalletAccounts(db, businessId, ['INVESTMENT']);
  if (accounts.length === 0) return [];
  const { yield_rate_bps } = await walletSettings(db, businessId);
  const month = `${isoDay(nowMs).slice(0, 7)}-01`;
  const sums = await db.query<{ account_id: string; month: string; total: string; last: string | null }>(
    `SELECT account_id::text, coalesce(sum(amount) FILTER (WHERE day >= $2::date), 0)::text AS month, coalesce(sum(amount), 0)::text AS total,
            to_char(max(day), 'YYYY-MM-DD') AS last
       FROM yield_accruals WHERE business_id = $1 GROUP BY account_id`,
    [businessId, month],
  );
  const byAccount = new Map(sums.map((s) => [s.account_id, s]));
  return accounts.map((a) => {
    const s = byAccount.get(a.uuid);
    const currency = a.balance.currency;
    return {
      ...a,
      yield_rate_bps,
      accrued_this_month: { amount: Number(s?.month ?? 0), currency },
      accrued_total: { amount: Number(s?.total ?? 0), currency },
      last_accrual_date: s?.last ?? null,
    };
  });
}
