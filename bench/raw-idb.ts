/**
 * raw_idb_put_ms: the floor the first mirror is held to. The same transaction rows the mirror
 * receives are fetched once from the change feed, then written with plain Dexie `bulkPut` in
 * the same browser, in batches of the feed's batch size, into a table with the mirror's one
 * index (occurred_desc). Only the writes are timed.
 *
 * The page lives on another origin (localhost instead of 127.0.0.1, served by Playwright route
 * handlers, never by our server), so the app's service worker and mirror stay untouched.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BrowserContext } from 'playwright-core';
import { syncChanges } from '../schema/api/calls.ts';
import { occurredDesc } from '../schema/mirror.ts';
import type { ApiClient } from '../tests/support/api.ts';

/** Every visible, non-deleted transaction row, in feed order, as the mirror stores it. */
export async function fetchTransactionRows(api: ApiClient, limit: number): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let after = 0;
  for (;;) {
    const page = await api.call(syncChanges, { query: { after: String(after), limit: String(limit) } });
    for (const c of page.changes) {
      if (c.collection === 'transactions' && !c.deleted && c.doc) {
        rows.push({ ...c.doc, occurred_desc: occurredDesc(String(c.doc.occurred_at)) });
      }
    }
    if (!page.has_more || page.checkpoint <= after) return rows;
    after = page.checkpoint;
  }
}

const PAGE_SCRIPT = `async ({ batch }) => {
  const { Dexie } = await import('/__bench/dexie.mjs');
  const rows = await (await fetch('/__bench/rows.json')).json();
  const db = new Dexie('ledgerline-raw-floor');
  db.version(1).stores({ transactions: 'id, occurred_desc' });
  await db.open();
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += batch) {
    await db.table('transactions').bulkPut(rows.slice(i, i + batch));
  }
  const ms = performance.now() - t0;
  const count = await db.table('transactions').count();
  db.close();
  await Dexie.delete('ledgerline-raw-floor');
  return { ms, count };
}`;

export async function measureRawIdbPut(
  context: BrowserContext,
  port: number,
  rows: readonly Record<string, unknown>[],
  batch: number,
): Promise<number> {
  const require = createRequire(import.meta.url);
  const dexieJs = await readFile(require.resolve('dexie/dist/dexie.mjs'));
  const origin = `http://localhost:${port}`;
  const body = JSON.stringify(rows);
  const page = await context.newPage();
  try {
    await page.route(`${origin}/__bench/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/__bench/dexie.mjs') return route.fulfill({ body: dexieJs, contentType: 'text/javascript' });
      if (path === '/__bench/rows.json') return route.fulfill({ body, contentType: 'application/json' });
      return route.fulfill({ body: '<!doctype html><title>raw floor</title>', contentType: 'text/html' });
    });
    await page.goto(`${origin}/__bench/index.html`);
    const fn = `(${PAGE_SCRIPT})(${JSON.stringify({ batch })})`;
    const res = (await page.evaluate(fn)) as { ms: number; count: number };
    if (res.count !== rows.length) throw new Error(`raw floor wrote ${res.count} of ${rows.length} rows`);
    return res.ms;
  } finally {
    await page.close();
  }
}
