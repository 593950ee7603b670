/**
 * Reaches the data worker's typed API from the benchmark through the app's test hook
 * (`window.__ledgerline`, the Comlink client the UI itself uses), so search and bulk coding are
 * timed by the worker's own measurements (`took_ms`) rather than by UI rendering.
 *
 * Page scripts are sent as strings: functions compiled by tsx carry helpers (`__name`) that do
 * not exist in the page.
 */
import type { Page } from 'playwright-core';

/** Page-side expression resolving the hook's DataApi client. */
const API = `(() => {
  const hook = window.__ledgerline;
  const api = hook && (hook.api ?? hook.client ?? hook);
  if (!api || typeof api.queryTransactions !== 'function') throw new Error('window.__ledgerline exposes no DataApi');
  return api;
})()`;

export async function waitForHook(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    `(() => { try { return !!${API}; } catch { return false; } })()`,
    undefined,
    { timeout },
  );
}

export interface SearchTimings {
  /** The worker's own time per query (QueryResult.took_ms). */
  worker: number[];
  /** Page-side time around the Comlink call (worker time plus messaging). */
  roundTrip: number[];
  totals: number[];
}

/** Runs each query once (first 50 rows, newest first), sequentially, in the data worker. */
export async function localSearch(page: Page, queries: readonly string[]): Promise<SearchTimings> {
  return page.evaluate(`(async (queries) => {
    const api = ${API};
    const out = { worker: [], roundTrip: [], totals: [] };
    for (const q of queries) {
      const t0 = performance.now();
      const r = await api.queryTransactions({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 50 });
      out.roundTrip.push(performance.now() - t0);
      out.worker.push(r.took_ms);
      out.totals.push(r.total);
    }
    return out;
  })(${JSON.stringify(queries)})`);
}

/** How many transactions the local mirror holds (everything the user may see). */
export async function mirroredTotal(page: Page): Promise<number> {
  return page.evaluate(`(async () => {
    const r = await ${API}.queryTransactions({ filter: {}, sort: 'occurred_desc', offset: 0, limit: 1 });
    return r.total;
  })()`);
}

export async function matchingIds(page: Page, filter: Record<string, unknown>): Promise<string[]> {
  return page.evaluate(`(${API}).matchingIds(${JSON.stringify(filter)})`);
}

/**
 * Bulk-codes `ids` through the worker and waits for the outbox to drain. local: the worker's
 * took_ms (optimistic apply + durable outbox write); acked: page time from the call until the
 * worker reports no pending command (the server acknowledged and the confirmation was applied).
 */
export async function bulkCode(
  page: Page,
  ids: readonly string[],
  patch: Record<string, unknown>,
  timeoutMs: number,
): Promise<{ local_ms: number; acked_ms: number; affected: number }> {
  return page.evaluate(`(async ({ ids, patch, timeoutMs }) => {
    const api = ${API};
    const t0 = performance.now();
    const r = await api.codeTransactions(ids, patch);
    if (!r.ok) throw new Error('codeTransactions refused: ' + JSON.stringify(r.error));
    for (;;) {
      const s = await api.status();
      if (s.pending === 0 && s.failed === 0 && s.needsStepUp === 0) break;
      if (s.failed > 0 || s.needsStepUp > 0) throw new Error('bulk code did not go through: ' + JSON.stringify(s));
      if (performance.now() - t0 > timeoutMs) throw new Error('bulk code not acknowledged within ' + timeoutMs + ' ms');
      await new Promise((res) => setTimeout(res, 10));
    }
    return { local_ms: r.took_ms, acked_ms: performance.now() - t0, affected: r.affected };
  })(${JSON.stringify({ ids, patch, timeoutMs })})`);
}
