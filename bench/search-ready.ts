/**
 * search_ready_ms: an offline reload → the data worker's text search answers a many-hit query
 * with its full total (the engine loaded and the text index built), on the reloaded document's
 * clock. Measured after every other browser phase, on its own reload, so it changes none of them.
 */
import type { Page } from 'playwright-core';
import { apiSearch, type ApiClient } from '../tests/support/api.ts';
import { waitForSyncStatus, type BrowserSession } from '../tests/support/browser.ts';
import { pageMark, waitForHook } from './app-probe.ts';

/**
 * The search-ready probe's query: of the queries that count the same locally and online, the
 * one with the most hits (a query over many rows is answered in full only once the whole text
 * index is there).
 */
export function searchReadyQuery(queries: readonly string[], local: readonly number[], online: readonly number[]): string {
  let best = -1;
  queries.forEach((_, i) => {
    if (local[i] === online[i] && (best < 0 || (local[i] ?? 0) > (local[best] ?? 0))) best = i;
  });
  if (best < 0) throw new Error('no search query counts the same locally and online');
  return queries[best]!;
}

/**
 * search_ready_ms: an offline reload → the first answer of the data worker that gives `q` its
 * full total (the online search's, asked right before: the earlier phases coded and locked
 * rows), on the reloaded document's clock (from its navigation start). The page polls the
 * worker (searchReadyAt) from the moment it exists.
 */
export async function measureSearchReady(b: BrowserSession, api: ApiClient, q: string) {
  const { context, page } = b;
  const total = (await apiSearch(api, { filters: { q }, pageSize: 1, includeCount: true })).total_count ?? Number.NaN;
  await context.setOffline(true);
  await page.reload({ waitUntil: 'commit' });
  const ready = await searchReadyAt(page, q, total, 10 * 60_000);
  const firstRowMs = await pageMark(page, 'first_row_painted', 60_000);
  await context.setOffline(false);
  await waitForHook(page);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  return { ms: ready.at, calls: ready.calls, total, firstRowMs };
}

/**
 * After a (re)load: polls the data worker from the page, from the moment it exists, until `q`
 * (first 50 rows, newest first) answers with `expectedTotal`. One call in flight at a time, 20 ms
 * after each answer; a call unanswered for 2 s gets a fresh one beside it (a message posted
 * before the worker listens is lost, and must not stall the probe), at most 5 at once. Returns
 * the full answer's arrival on the document's clock (ms since its navigation start) and how many
 * calls it took. Calls the worker refuses while it starts count as not ready.
 */
export async function searchReadyAt(
  page: Page,
  q: string,
  expectedTotal: number,
  timeoutMs: number,
): Promise<{ at: number; calls: number; lastTotal: number }> {
  return page.evaluate(`(async ({ q, expectedTotal, timeoutMs }) => {
    const t0 = performance.now();
    let calls = 0;
    let lastTotal = -1;
    let readyAt = null;
    let inFlight = 0;
    let lastIssued = -Infinity;
    let lastAnswer = -Infinity;
    for (;;) {
      const bench = window.__ledgerlineBench;
      const now = performance.now();
      const due = inFlight === 0 ? now - lastAnswer >= 20 : inFlight < 5 && now - lastIssued >= 2000;
      if (bench && bench.worker && due) {
        calls++;
        inFlight++;
        lastIssued = now;
        bench.api.queryTransactions({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 50 }).then(
          (r) => { lastTotal = r.total; if (r.total === expectedTotal && readyAt === null) readyAt = performance.now(); },
          () => { /* not started yet */ },
        ).finally(() => { inFlight--; lastAnswer = performance.now(); });
      }
      if (readyAt !== null) return { at: readyAt, calls, lastTotal };
      if (now - t0 > timeoutMs) throw new Error('search not ready after ' + timeoutMs + ' ms: ' + JSON.stringify(q) + ' answered ' + lastTotal + ', expected ' + expectedTotal);
      await new Promise((res) => setTimeout(res, 5));
    }
  })(${JSON.stringify({ q, expectedTotal, timeoutMs })})`);
}
