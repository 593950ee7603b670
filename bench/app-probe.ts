/**
 * Reaches the app's data worker from the benchmark, so search and bulk coding are timed by the
 * worker's own measurements (`QueryResult.took_ms`, `CommandResult.took_ms`) rather than by UI
 * rendering.
 *
 * No test hook in src/ is needed: an init script (installed before the app loads) remembers the
 * Worker the app starts under the name 'ledgerline-data', and talks to it with Comlink's own
 * message format (APPLY with RAW arguments; comlink 4.4 is pinned), on message ids of its own,
 * which the app's Comlink client ignores. The app and the benchmark share that one worker.
 *
 * Page scripts are strings: functions compiled by tsx carry helpers (`__name`) that do not
 * exist in the page.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { pollPage } from '../tests/support/browser.ts';

export const DATA_WORKER_NAME = 'ledgerline-data';

const INIT_SCRIPT = `(() => {
  const Native = window.Worker;
  if (!Native || window.__ledgerlineBench) return;
  class RememberedWorker extends Native {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === ${JSON.stringify(DATA_WORKER_NAME)}) window.__ledgerlineBench.worker = this;
    }
  }
  window.Worker = RememberedWorker;
  let seq = 0;
  const call = (method, args) => new Promise((resolve, reject) => {
    const worker = window.__ledgerlineBench.worker;
    if (!worker) return reject(new Error('the data worker has not started'));
    const id = 'ledgerline-bench-' + (++seq) + '-' + Math.random().toString(16).slice(2);
    const onMessage = (ev) => {
      const d = ev.data;
      if (!d || d.id !== id) return;
      worker.removeEventListener('message', onMessage);
      if (d.type === 'HANDLER' && d.name === 'throw') {
        const v = d.value;
        reject(v.isError ? Object.assign(new Error(v.value.message), v.value) : v.value);
      } else resolve(d.value);
    };
    worker.addEventListener('message', onMessage);
    worker.postMessage({ id, type: 'APPLY', path: [method], argumentList: args.map((value) => ({ type: 'RAW', value })) });
  });
  // Page-side marks on this document's clock: the sign-in submit, and the first frame that
  // shows a data row of the grid (a MutationObserver spots it; the next animation frame is
  // when it is painted). After a reload they restart with the new document.
  const marks = {};
  const mark = (name) => { if (!(name in marks)) marks[name] = performance.now(); };
  document.addEventListener('submit', () => mark('sign_in_submit'), true);
  const FIRST_ROW = '[role="grid"] [role="row"][aria-rowindex="2"]';
  let rowSeen = false;
  const observer = new MutationObserver(() => {
    if (rowSeen || !document.querySelector(FIRST_ROW)) return;
    rowSeen = true;
    observer.disconnect();
    requestAnimationFrame(() => mark('first_row_painted'));
  });
  observer.observe(document, { childList: true, subtree: true });
  window.__ledgerlineBench = {
    worker: null,
    marks,
    api: {
      queryTransactions: (...a) => call('queryTransactions', a),
      query: (...a) => call('query', a),
      matchingIds: (...a) => call('matchingIds', a),
      report: (...a) => call('report', a),
      exportCsv: (...a) => call('exportCsv', a),
      codeTransactions: (...a) => call('codeTransactions', a),
      run: (...a) => call('run', a),
      status: (...a) => call('status', a),
    },
  };
})();`;

/** Installs the worker probe in every page of the context (before any app script runs). */
export async function installProbe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: INIT_SCRIPT });
}

/** Page-side expression for the probe's DataApi subset. */
const API = `(() => {
  const bench = window.__ledgerlineBench;
  if (!bench || !bench.worker) throw new Error('the data worker probe is not attached (installProbe before the app loads)');
  return bench.api;
})()`;

export async function waitForHook(page: Page, timeout = 60_000): Promise<void> {
  await pollPage(
    page,
    () => {
      const b = (window as unknown as { __ledgerlineBench?: { worker?: unknown } }).__ledgerlineBench;
      return !!(b && b.worker);
    },
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

/** The worker's took_ms for `runs` reports of `query` in a row (issue 12's report engine). */
export async function reportTimes(page: Page, query: Record<string, unknown>, runs: number): Promise<number[]> {
  return page.evaluate(`(async ({ query, runs }) => {
    const api = ${API};
    const out = [];
    for (let i = 0; i < runs; i++) out.push((await api.report(query)).took_ms);
    return out;
  })(${JSON.stringify({ query, runs })})`);
}

/** The worker's CSV export of every transaction (newest first): its took_ms, rows and bytes. */
export async function exportAllCsv(page: Page): Promise<{ ms: number; rows: number; bytes: number }> {
  return page.evaluate(`(async () => {
    const api = ${API};
    const r = await api.exportCsv('transactions', {}, 'occurred_desc');
    if (!r.ok) throw new Error('export refused: ' + r.message);
    return { ms: r.took_ms, rows: r.rows, bytes: r.file.size };
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
): Promise<{ local_ms: number; acked_ms: number; affected: number; called_at: number }> {
  return page.evaluate(`(async ({ ids, patch, timeoutMs }) => {
    const api = ${API};
    const calledAt = Date.now();
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
    return { local_ms: r.took_ms, acked_ms: performance.now() - t0, affected: r.affected, called_at: calledAt };
  })(${JSON.stringify({ ids, patch, timeoutMs })})`);
}

/**
 * Locks `ids` through the worker (`card.bulkLock`, split in calls of ≤ 1,000) and waits for the
 * outbox to drain: local is the worker's took_ms (optimistic apply + durable outbox write), acked the page time until the
 * server acknowledged and the confirmation was applied (as `bulkCode`).
 */
export async function bulkLockCards(page: Page, ids: readonly string[], timeoutMs: number): Promise<{ local_ms: number; acked_ms: number }> {
  return page.evaluate(`(async ({ ids, timeoutMs }) => {
    const api = ${API};
    const t0 = performance.now();
    const r = await api.run('card.bulkLock', { card_ids: ids, lock: true });
    if (!r.ok) throw new Error('card.bulkLock refused: ' + JSON.stringify(r.error));
    const local = r.took_ms;
    for (;;) {
      const s = await api.status();
      if (s.pending === 0 && s.failed === 0 && s.needsStepUp === 0) break;
      if (s.failed > 0 || s.needsStepUp > 0) throw new Error('bulk lock did not go through: ' + JSON.stringify(s));
      if (performance.now() - t0 > timeoutMs) throw new Error('bulk lock not acknowledged within ' + timeoutMs + ' ms');
      await new Promise((res) => setTimeout(res, 10));
    }
    return { local_ms: local, acked_ms: performance.now() - t0 };
  })(${JSON.stringify({ ids, timeoutMs })})`);
}

/** How many bills have `status` in the page's mirror now. */
export async function billStatusCount(page: Page, status: string): Promise<number> {
  return page.evaluate(`(async ({ status }) => {
    const r = await ${API}.query('bills', { filter: { statuses: [status] }, sort: 'created_desc', offset: 0, limit: 1 });
    return r.total;
  })(${JSON.stringify({ status })})`);
}

/**
 * Polls the worker until `n` bills have `status` in the mirror (no more than `timeoutMs`): the
 * page-side ms at which a server-side change to bills has arrived.
 */
export async function billsWithStatusAt(page: Page, status: string, n: number, timeoutMs: number): Promise<number> {
  return page.evaluate(`(async ({ status, n, timeoutMs }) => {
    const api = ${API};
    const t0 = performance.now();
    for (;;) {
      const r = await api.query('bills', { filter: { statuses: [status] }, sort: 'created_desc', offset: 0, limit: 1 });
      if (r.total >= n) return performance.now();
      if (performance.now() - t0 > timeoutMs) throw new Error(n + ' ' + status + ' bills not mirrored within ' + timeoutMs + ' ms (' + r.total + ')');
      await new Promise((res) => setTimeout(res, 10));
    }
  })(${JSON.stringify({ status, n, timeoutMs })})`);
}

/** A page-side mark (ms on the current document's clock), waiting for it to be set. */
export async function pageMark(page: Page, name: 'sign_in_submit' | 'first_row_painted', timeout = 600_000): Promise<number> {
  return pollPage(
    page,
    (mark) => {
      const b = (window as unknown as { __ledgerlineBench?: { marks: Record<string, number | undefined> } }).__ledgerlineBench;
      return b?.marks[mark];
    },
    name,
    { timeout, interval: 50 },
  );
}

/** The first-page query of each counted collection (one row, the list's default sort). */
export const COUNTED_QUERIES = {
  transactions: { method: 'queryTransactions', sort: 'occurred_desc' },
  reimbursements: { method: 'query', sort: 'date_desc' },
  approvals: { method: 'query', sort: 'created_desc' },
  cards: { method: 'query', sort: 'name_asc' },
  bills: { method: 'query', sort: 'created_desc' },
} as const;
export type CountedCollection = keyof typeof COUNTED_QUERIES;

/**
 * Polls in the page (every 20 ms) until the first mirror is complete: the sync indicator says
 * "All changes synced" (since issue 8 only once the first mirror is complete, nothing waits and
 * the last pull succeeded: tests/support/browser.ts SYNC_TEXT), the progress bar and the
 * partial-results notice are gone, and the worker counts the `expected` rows of every counted
 * collection (transactions, reimbursements, approvals).
 * Returns the page-clock time it was first seen complete.
 */
export async function mirrorCompleteAt(page: Page, expected: Partial<Record<CountedCollection, number>>, timeoutMs: number): Promise<number> {
  return page.evaluate(`(async ({ expected, queries, timeoutMs }) => {
    const api = ${API};
    const t0 = performance.now();
    const counted = async () => {
      for (const [collection, n] of Object.entries(expected)) {
        const q = queries[collection];
        const page = { filter: {}, sort: q.sort, offset: 0, limit: 1 };
        const r = q.method === 'query' ? await api.query(collection, page) : await api.queryTransactions(page);
        if (r.total < n) return false;
      }
      return true;
    };
    for (;;) {
      const synced = [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent.trim() === 'All changes synced');
      if (synced && !document.querySelector('[role="progressbar"]') && !document.querySelector('[data-testid="partial-results"]')) {
        if (await counted()) return performance.now();
      }
      if (performance.now() - t0 > timeoutMs) throw new Error('first mirror not complete after ' + timeoutMs + ' ms');
      await new Promise((res) => setTimeout(res, 20));
    }
  })(${JSON.stringify({ expected, queries: COUNTED_QUERIES, timeoutMs })})`);
}

/**
 * Runs each query once over `collection` in the data worker (first 50 rows, the list's default
 * sort), sequentially: the worker's took_ms and the totals.
 */
export async function localCollectionSearch(
  page: Page,
  collection: 'reimbursements',
  queries: readonly string[],
): Promise<{ worker: number[]; totals: number[] }> {
  return page.evaluate(`(async ({ collection, sort, queries }) => {
    const api = ${API};
    const out = { worker: [], totals: [] };
    for (const q of queries) {
      const r = await api.query(collection, { filter: { q }, sort, offset: 0, limit: 50 });
      out.worker.push(r.took_ms);
      out.totals.push(r.total);
    }
    return out;
  })(${JSON.stringify({ collection, sort: COUNTED_QUERIES[collection].sort, queries })})`);
}

/**
 * Clicks the navigation link to `path` (a client-side navigation, as a user does) and returns
 * the page time from the click to the frame after the first data row of `rowSelector` appears.
 */
export async function navigateToFirstRow(page: Page, path: string, rowSelector: string, timeoutMs: number): Promise<number> {
  return page.evaluate(`(async ({ path, rowSelector, timeoutMs }) => {
    const link = [...document.querySelectorAll('a[href]')].find((a) => new URL(a.href).pathname === path);
    if (!link) throw new Error('no navigation link to ' + path);
    const seen = new Promise((resolve, reject) => {
      const found = () => document.querySelector(rowSelector);
      const timer = setTimeout(() => { observer.disconnect(); reject(new Error('no row of ' + path + ' after ' + timeoutMs + ' ms')); }, timeoutMs);
      const observer = new MutationObserver(() => {
        if (!found()) return;
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => resolve(performance.now()));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const t0 = performance.now();
    link.click();
    return (await seen) - t0;
  })(${JSON.stringify({ path, rowSelector, timeoutMs })})`);
}
