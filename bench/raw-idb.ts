/**
 * raw_idb_put_ms: the floor the first mirror is held to. The same rows the mirror receives
 * (every mirrored collection: transactions, reimbursements, approvals and the reference
 * collections) are fetched once from the change feed, then written with plain Dexie `bulkPut`
 * in the same browser, in batches of the feed's batch size, one table per collection with the
 * mirror's one index (its negated-time field: occurred_desc, date_desc, created_desc). Only the
 * writes are timed.
 *
 * The page lives on another origin (localhost instead of 127.0.0.1, served by Playwright route
 * handlers, never by our server), so the app's service worker and mirror stay untouched.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { BrowserContext } from 'playwright-core';
import { syncChanges } from '../schema/api/calls.ts';
import { ENTITIES, type MirroredCollection } from '../schema/collections.ts';
import type { ApiClient } from '../tests/support/api.ts';

export interface FeedRow {
  collection: MirroredCollection;
  row: Record<string, unknown>;
}

/** The collection's one mirror index: its negated-time field, if it has one. */
function indexField(collection: MirroredCollection): { field: string; of: string } | undefined {
  return (ENTITIES[collection].mirror as { negatedTime?: { field: string; of: string } }).negatedTime;
}

/** Every visible, non-deleted row of every collection, in feed order, as the mirror stores it. */
export async function fetchMirrorRows(api: ApiClient, limit: number): Promise<FeedRow[]> {
  const rows: FeedRow[] = [];
  let after = 0;
  for (;;) {
    const page = await api.call(syncChanges, { query: { after: String(after), limit: String(limit) } });
    for (const c of page.changes) {
      if (c.deleted || !c.doc) continue;
      const collection = c.collection as MirroredCollection;
      const index = indexField(collection);
      const row = index ? { ...c.doc, [index.field]: -Date.parse(String(c.doc[index.of])) } : { ...c.doc };
      rows.push({ collection, row });
    }
    if (!page.has_more || page.checkpoint <= after) return rows;
    after = page.checkpoint;
  }
}

/** Rows per collection (for the report). */
export function countByCollection(rows: readonly FeedRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.collection] = (counts[r.collection] ?? 0) + 1;
  return counts;
}

// Feed order is kept: each feed-sized batch is split by collection and put table by table, as
// the mirror writes a feed page.
// The rows arrive in parts: one response of every row (≈200 MB at 100k transactions with claims
// and approvals) crashed the renderer; the parts are fetched before the clock starts.
const PAGE_SCRIPT = `async ({ batch, stores, parts }) => {
  const { Dexie } = await import('/__bench/dexie.mjs');
  const rows = [];
  for (let i = 0; i < parts; i++) for (const r of await (await fetch('/__bench/rows/' + i + '.json')).json()) rows.push(r);
  const db = new Dexie('ledgerline-raw-floor');
  db.version(1).stores(stores);
  await db.open();
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += batch) {
    const byTable = new Map();
    for (const r of rows.slice(i, i + batch)) {
      if (!byTable.has(r.collection)) byTable.set(r.collection, []);
      byTable.get(r.collection).push(r.row);
    }
    for (const [table, part] of byTable) await db.table(table).bulkPut(part);
  }
  const ms = performance.now() - t0;
  let count = 0;
  for (const table of Object.keys(stores)) count += await db.table(table).count();
  db.close();
  await Dexie.delete('ledgerline-raw-floor');
  return { ms, count };
}`;

export async function measureRawIdbPut(
  context: BrowserContext,
  port: number,
  rows: readonly FeedRow[],
  batch: number,
): Promise<number> {
  const stores = Object.fromEntries(
    [...new Set(rows.map((r) => r.collection))].map((c) => [c, indexField(c) ? `id, ${indexField(c)!.field}` : 'id']),
  );
  const require = createRequire(import.meta.url);
  const dexieJs = await readFile(require.resolve('dexie/dist/dexie.mjs'));
  const origin = `http://localhost:${port}`;
  const PART = 20_000;
  const parts = Math.max(1, Math.ceil(rows.length / PART));
  const page = await context.newPage();
  try {
    await page.route(`${origin}/__bench/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/__bench/dexie.mjs') return route.fulfill({ body: dexieJs, contentType: 'text/javascript' });
      const part = /^\/__bench\/rows\/(\d+)\.json$/.exec(path);
      if (part) {
        const i = Number(part[1]);
        return route.fulfill({ body: JSON.stringify(rows.slice(i * PART, (i + 1) * PART)), contentType: 'application/json' });
      }
      return route.fulfill({ body: '<!doctype html><title>raw floor</title>', contentType: 'text/html' });
    });
    await page.goto(`${origin}/__bench/index.html`);
    const fn = `(${PAGE_SCRIPT})(${JSON.stringify({ batch, stores, parts })})`;
    const res = (await page.evaluate(fn)) as { ms: number; count: number };
    if (res.count !== rows.length) throw new Error(`raw floor wrote ${res.count} of ${rows.length} rows`);
    return res.ms;
  } finally {
    await page.close();
  }
}
