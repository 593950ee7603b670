import type { Queryable } from '../db/db.ts';

/**
 * Issue 30: the ledger's consistency check (`npm run ledger:check`, and server tests after every
 * operation). It proves from the rows alone, not from the code that wrote them:
 *  - the postings of each currency sum to zero (over everything, and per business);
 *  - every journal entry balances per currency and has at least two postings;
 *  - every account's cached balance equals the sum of its postings, and its last daily closing
 *    balance equals it too;
 *  - no wallet account is below zero.
 */
export interface LedgerReport {
  ok: boolean;
  entries: number;
  postings: number;
  accounts: number;
  /** Sum of all postings per currency (each must be 0). */
  totals: Record<string, number>;
  unbalancedEntries: { entry_id: string; currency: string; sum: number; postings: number }[];
  wrongBalances: { account_id: string; cached: number; postings: number }[];
  wrongClosings: { account_id: string; closing: number; balance: number }[];
  overdrawn: { account_id: string; balance: number }[];
}

export async function checkLedger(db: Queryable, businessId?: string): Promise<LedgerReport> {
  const params = businessId ? [businessId] : [];
  const where = businessId ? 'WHERE business_id = $1' : '';
  const and = businessId ? 'AND a.business_id = $1' : '';
  const totals = await db.query<{ currency: string; total: string }>(
    `SELECT currency, sum(amount)::text AS total FROM postings ${where} GROUP BY currency ORDER BY currency`, params,
  );
  const counts = await db.query<{ entries: number; postings: number; accounts: number }>(
    `SELECT (SELECT count(*) FROM journal_entries ${where})::int AS entries,
            (SELECT count(*) FROM postings ${where})::int AS postings,
            (SELECT count(*) FROM ledger_accounts ${where})::int AS accounts`, params,
  );
  const unbalanced = await db.query<{ entry_id: string; currency: string; sum: string; postings: number }>(
    `SELECT e.id AS entry_id, coalesce(p.currency, '') AS currency, coalesce(sum(p.amount), 0)::text AS sum, count(p.id)::int AS postings
       FROM journal_entries e LEFT JOIN postings p ON p.entry_id = e.id
      ${businessId ? 'WHERE e.business_id = $1' : ''}
      GROUP BY e.id, p.currency
     HAVING coalesce(sum(p.amount), 0) <> 0 OR count(p.id) < 2
      LIMIT 100`, params,
  );
  const wrong = await db.query<{ account_id: string; cached: string; postings: string }>(
    `SELECT a.id AS account_id, a.balance::text AS cached, coalesce(s.total, 0)::text AS postings
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(amount) AS total FROM postings GROUP BY account_id) s ON s.account_id = a.id
      WHERE a.balance <> coalesce(s.total, 0) ${and}
      LIMIT 100`, params,
  );
  const closings = await db.query<{ account_id: string; closing: string; balance: string }>(
    `SELECT a.id AS account_id, d.closing::text AS closing, a.balance::text AS balance
       FROM ledger_accounts a
       JOIN LATERAL (SELECT closing FROM ledger_daily_balances d WHERE d.account_id = a.id ORDER BY d.day DESC LIMIT 1) d ON true
      WHERE d.closing <> a.balance ${and}
      LIMIT 100`, params,
  );
  const overdrawn = await db.query<{ account_id: string; balance: string }>(
    `SELECT a.id AS account_id, a.balance::text AS balance FROM ledger_accounts a
      WHERE NOT a.allow_negative AND a.balance < 0 ${and} LIMIT 100`, params,
  );
  const report: LedgerReport = {
    ok: false,
    entries: counts[0]!.entries,
    postings: counts[0]!.postings,
    accounts: counts[0]!.accounts,
    totals: Object.fromEntries(totals.map((t) => [t.currency, Number(t.total)])),
    unbalancedEntries: unbalanced.map((u) => ({ ...u, sum: Number(u.sum) })),
    wrongBalances: wrong.map((w) => ({ account_id: w.account_id, cached: Number(w.cached), postings: Number(w.postings) })),
    wrongClosings: closings.map((c) => ({ account_id: c.account_id, closing: Number(c.closing), balance: Number(c.balance) })),
    overdrawn: overdrawn.map((o) => ({ account_id: o.account_id, balance: Number(o.balance) })),
  };
  report.ok = Object.values(report.totals).every((t) => t === 0) && report.unbalancedEntries.length === 0
    && report.wrongBalances.length === 0 && report.wrongClosings.length === 0 && report.overdrawn.length === 0;
  return report;
}
