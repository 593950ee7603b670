/**
 * The benchmark's timed phases in the browser and against the API (bench/measure.ts runs them in
 * order): the first mirror, online search, the offline cold start, bulk coding and the bulk
 * mark-paid of bills.
 */
import { chromium, type Page } from 'playwright-core';
import { bulkMarkPaid } from '../schema/api/calls-bill-bulk.ts';
import { BULK_BILL_LIMIT } from '../schema/bill-rules.ts';
import { BULK_CODE_MAX } from '../schema/constants.ts';
import { apiSearch, type ApiClient } from '../tests/support/api.ts';
import { CHROMIUM_PATH, signIn, waitForServiceWorkerControl, waitForSyncStatus, type BrowserSession } from '../tests/support/browser.ts';
import {
  billStatusCount, billsWithStatusAt, bulkCode, matchingIds, mirrorCompleteAt, pageMark, waitForHook, type CountedCollection,
} from './app-probe.ts';
import type { Db } from './fixtures.ts';

export const ADMIN = { email: 'admin@demo.test', password: 'demo-password-1' };

/**
 * The admin signs in on a fresh profile and the first mirror completes: "All changes synced", the
 * service worker in control and the data worker's runtime answering (what the profiling benches
 * start from before their offline reloads).
 */
export async function mirrorAsAdmin(page: Page): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').waitFor({ timeout: 60_000 });
  await signIn(page, ADMIN.email, ADMIN.password, 600_000);
  await waitForHook(page, 600_000);
  await waitForSyncStatus(page, 'All changes synced', 1_800_000);
  await waitForServiceWorkerControl(page);
  await page.evaluate('window.__ledgerlineBench.api.matchingIds({})');
}

export async function chromiumVersion(): Promise<string> {
  const b = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
  try {
    return b.version();
  } finally {
    await b.close();
  }
}

/**
 * Marks the bulk limit's worth of APPROVED bills paid in one call, as the Bills page's bulk
 * action does (online: bulk actions run on the server): the call's round trip, and the time from
 * the call to all of them PAID in the page's mirror (the change feed bringing them back). The
 * server's answer is checked bill by bill, and the database after.
 */
export async function bulkMarkBillsPaid(page: Page, api: ApiClient, db: Db, businessId: string) {
  const approved = await db.query<{ id: string }>(
    `SELECT id FROM bills WHERE business_id = $1 AND status = 'APPROVED' AND NOT deleted ORDER BY created_at LIMIT $2`,
    [businessId, BULK_BILL_LIMIT],
  );
  const ids = approved.map((r) => r.id);
  if (ids.length === 0) throw new Error('no approved bills to mark paid: seed bills (--bills)');
  const paidBefore = await billStatusCount(page, 'PAID');
  const pageT0 = await page.evaluate(() => performance.now());
  const t0 = performance.now();
  const res = await api.call(bulkMarkPaid, { body: { bill_ids: ids } });
  const ms = performance.now() - t0;
  const refused = res.results.filter((r) => !r.ok);
  if (refused.length > 0) throw new Error(`mark-bills-as-paid refused ${refused.length} of ${ids.length}: ${JSON.stringify(refused[0])}`);
  const mirroredAt = await billsWithStatusAt(page, 'PAID', paidBefore + ids.length, 120_000);
  const paid = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bills WHERE id = ANY($1::uuid[]) AND status = 'PAID'`, [ids]);
  if (Number(paid[0]?.n) !== ids.length) throw new Error(`mark-bills-as-paid answered ok but the server has ${paid[0]?.n} of ${ids.length} paid`);
  return { ms, mirroredMs: mirroredAt - pageT0, count: ids.length };
}

/**
 * How long a first mirror may take before the run fails: 30 minutes, and an hour per million
 * transactions (the 1M mirror took 26 minutes on 2026-11-26, IndexedDB's cost per row growing with
 * the store: docs/performance.md).
 */
export const mirrorLimitMs = (transactions: number) => Math.max(30, (60 * transactions) / 1_000_000) * 60_000;

/**
 * Sign-in submit → first data row painted (first_page_ms), and → every row of every counted
 * collection mirrored with the outbox empty (mirror_ms). Both on the page's own clock, so polling granularity does not blur
 * them: the marks come from the probe's MutationObserver and a 20 ms in-page poll.
 */
export async function measureFirstMirror(b: BrowserSession, expected: Record<CountedCollection, number>, limitMs: number) {
  const { page } = b;
  await page.goto('/');
  await page.getByLabel('Email').waitFor({ timeout: 60_000 });
  await signIn(page, ADMIN.email, ADMIN.password, 600_000);
  await waitForHook(page, 600_000);
  const done = await mirrorCompleteAt(page, expected, limitMs);
  const submitted = await pageMark(page, 'sign_in_submit');
  const firstRow = await pageMark(page, 'first_row_painted');
  return { mirrorMs: done - submitted, firstPageMs: firstRow - submitted };
}

export async function onlineSearch(api: ApiClient, queries: readonly string[]): Promise<{ times: number[]; totals: number[] }> {
  await apiSearch(api, { filters: { q: 'warmup' }, includeCount: true });
  const times: number[] = [];
  const totals: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const res = await apiSearch(api, { filters: { q }, pageSize: 50, includeCount: true });
    times.push(performance.now() - t0);
    totals.push(res.total_count ?? Number.NaN);
  }
  return { times, totals };
}

/** Queries whose local and online result counts differ (the same filter must mean the same). */
export function totalMismatches(queries: readonly string[], local: readonly number[], online: readonly number[]) {
  return queries
    .map((q, i) => ({ q, local: local[i], online: online[i] }))
    .filter((m) => m.local !== m.online);
}

/**
 * Offline reload → first data row painted: the app shell from the service worker, the rows
 * from the local mirror. Timed on the reloaded document's clock, which starts at navigation.
 */
export async function measureColdStart(b: BrowserSession): Promise<number> {
  const { context, page } = b;
  await context.setOffline(true);
  await page.reload({ waitUntil: 'commit' });
  const ms = await pageMark(page, 'first_row_painted', 60_000);
  await context.setOffline(false);
  await waitForHook(page);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  return ms;
}

export async function measureBulkCode(b: BrowserSession, db: Db, businessId: string) {
  // "Select all matching" as a person does it: a filter that matches about BULK_CODE_MAX rows (the
  // newest days), not every row of the mirror — at 1M, `{}` timed handing a million ids to the page.
  const cut = await db.query<{ day: string }>(
    `SELECT to_char((occurred_at AT TIME ZONE 'UTC')::date + 1, 'YYYY-MM-DD') AS day FROM transactions
      WHERE business_id = $1 ORDER BY occurred_at DESC OFFSET $2 LIMIT 1`,
    [businessId, BULK_CODE_MAX - 1],
  );
  const filter = cut[0] ? { from: cut[0].day } : {};
  // The first call after the cold start also waits for the engine's restore (a detail); the
  // metric is "select all matching" on a list already answering, timed on the page's clock.
  const t0 = Date.now();
  await matchingIds(b.page, filter);
  const matchingIdsFirstMs = Date.now() - t0;
  const t1 = Date.now();
  const ids = (await matchingIds(b.page, filter)).slice(0, BULK_CODE_MAX);
  const matchingIdsMs = Date.now() - t1;
  if (ids.length === 0) throw new Error(`no transaction matches ${JSON.stringify(filter)}`);
  // A GL account most of these rows do not carry, so the command really changes them.
  const gl = await db.query<{ id: string }>(
    `SELECT g.id FROM gl_accounts g
       LEFT JOIN (SELECT gl_account_id, count(*) AS n FROM transactions WHERE business_id = $1 GROUP BY 1) c
         ON c.gl_account_id = g.id
      WHERE g.business_id = $1 AND g.active AND NOT g.deleted
      ORDER BY coalesce(c.n, 0), g.code LIMIT 1`,
    [businessId],
  );
  const glId = gl[0]?.id;
  if (!glId) throw new Error('no GL account to code with');
  const res = await bulkCode(b.page, ids, { gl_account_id: glId }, 300_000);
  const coded = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE business_id = $1 AND gl_account_id = $2 AND id = ANY($3::uuid[])',
    [businessId, glId, ids],
  );
  if (Number(coded[0]?.n) !== ids.length) {
    throw new Error(`bulk code acknowledged but the server has ${coded[0]?.n} of ${ids.length} coded`);
  }
  return { ...res, matchingIdsMs, matchingIdsFirstMs };
}
