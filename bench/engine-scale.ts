/**
 * The query engine alone at scale, no browser (issue 33): `npx tsx bench/engine-scale.ts --rows 1000000`
 * (`--queries 200`, `--json file` to keep the figures). Synthetic transactions in the demo seed's
 * mix (bench/engine-rows.ts) are fed to the transactions engine as the mirror feeds it
 * (collection-feed.ts: pages of 2,000 rows through `upsertMany`, then the text index built by
 * `indexSome` slices of 1,000 as text-indexing.ts does), and the benchmark reports:
 * - `load_ms` / `index_ms` / `search_ready_ms`: the load, the text index, and both plus the first
 *   search answered in full (what bench/search-ready.ts measures in the browser);
 * - `heap_mb`: heap used after a full GC with the engine loaded and every order built, and
 *   `engine_mb`, the part above the heap before the load; `array_buffers_mb`: typed arrays'
 *   backing stores, outside the JS heap (to add when comparing with a heap of plain arrays);
 * - search p50/p95 over the 200 queries (first 50 rows, newest first, with the total);
 * - filter+sort first pages (each a fresh query) and later pages (the cached result);
 * - "select all matching": `matchingIds` of the query whose total is nearest 10,000, cold.
 * Timing figures are noisy on a shared machine: note the load average beside them.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { TransactionFilter, TransactionSort } from '../schema/transaction-query.ts';
import { toEngineRow, transactionCollection } from '../workers/collections/transactions.ts';
import { benchQueries, benchWorld, rowPage } from './engine-rows.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const ROWS = Number(arg('rows', '100000'));
const PAGE = 2_000;
const SLICE = 1_000;

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : Number.NaN;
};
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
};

const world = benchWorld(Math.max(50, Math.round(Math.sqrt(ROWS) / 2)));
const engine = transactionCollection.engine(world.refs);
const queries = benchQueries(world);
const heapBefore = heapMb();

// The load: pages as the mirror hands them over (fresh strings), then the text index in slices.
// Only the engine's work is timed: making the synthetic page (the mirror's read) is not.
let loadMs = 0;
for (let from = 0; from < ROWS; from += PAGE) {
  const rows = rowPage(world, from, Math.min(PAGE, ROWS - from));
  loadMs += time(() => engine.upsertMany(rows.map(toEngineRow)))[1];
}
const [, indexMs] = time(() => {
  while (engine.indexSome(SLICE) > 0);
});
const firstQuery = { filter: { q: queries[0]! }, sort: 'occurred_desc' as const, offset: 0, limit: 50 };
const [, firstMs] = time(() => engine.query(firstQuery));
const searchReadyMs = loadMs + indexMs + firstMs;

const page = (filter: TransactionFilter, sort: TransactionSort = 'occurred_desc', offset = 0) => engine.query({ filter, sort, offset, limit: 50 });

// Search: one warm-up pass (JIT), then the timed pass.
for (const q of queries) page({ q });
const searchMs: number[] = [];
const totals: number[] = [];
for (const q of queries) {
  const [r, ms] = time(() => page({ q }));
  searchMs.push(ms);
  totals.push(r.total);
}

// Filter+sort pages: each first page a fresh query (the engine caches one result), then a later page.
const [p0, p1] = world.people;
const filters: [TransactionFilter, TransactionSort][] = [
  [{ states: ['PENDING'] }, 'occurred_desc'],
  [{ user_ids: [p0!.id, p1!.id] }, 'amount_desc'],
  [{ missing_coding: true, from: '2025-01-01' }, 'occurred_asc'],
  [{ amount_min: 10_000, amount_max: 50_000 }, 'merchant_asc'],
  [{ department_ids: [world.departments[1]!.id], q: 'uber' }, 'occurred_desc'],
  [{ missing_receipt: true, states: ['CLEARED'] }, 'amount_asc'],
];
const firstPages: number[] = [];
const laterPages: number[] = [];
for (let round = 0; round < 4; round++) {
  for (const [filter, sort] of filters) {
    const [, first] = time(() => page(filter, sort));
    const [, later] = time(() => page(filter, sort, 1_000));
    if (round > 0) {
      firstPages.push(first);
      laterPages.push(later);
    }
  }
}

// Select all matching: the query nearest 10,000 rows, cold (another query answered in between).
let pick = 0;
totals.forEach((t, i) => {
  if (Math.abs(t - 10_000) < Math.abs(totals[pick]! - 10_000)) pick = i;
});
const selectQ = queries[pick]!;
const selectMs: number[] = [];
let selected = 0;
for (let i = 0; i < 5; i++) {
  page({ q: queries[(pick + 1 + i) % queries.length]! });
  const [ids, ms] = time(() => engine.matchingIds({ q: selectQ }));
  selected = ids.length;
  selectMs.push(ms);
}

const heapAfter = heapMb();
// Typed arrays' backing stores live outside the JS heap: counted apart, so nothing hides there.
const buffersMb = process.memoryUsage().arrayBuffers / 1e6;
const result = {
  rows: ROWS,
  load_ms: round(loadMs, 0),
  index_ms: round(indexMs, 0),
  first_query_ms: round(firstMs, 1),
  search_ready_ms: round(searchReadyMs, 0),
  heap_mb: round(heapAfter, 1),
  engine_mb: round(heapAfter - heapBefore, 1),
  array_buffers_mb: round(buffersMb, 1),
  search_p50_ms: round(quantile(searchMs, 0.5)),
  search_p95_ms: round(quantile(searchMs, 0.95)),
  search_max_ms: round(Math.max(...searchMs)),
  slowest: searchMs.map((ms, i) => ({ q: queries[i]!, ms: round(ms), total: totals[i]! })).sort((a, b) => b.ms - a.ms).slice(0, 5),
  filter_first_page_p50_ms: round(quantile(firstPages, 0.5)),
  filter_first_page_p95_ms: round(quantile(firstPages, 0.95)),
  filter_later_page_p95_ms: round(quantile(laterPages, 0.95), 3),
  select_all: { q: selectQ, ids: selected, median_ms: round(quantile(selectMs, 0.5)), max_ms: round(Math.max(...selectMs)) },
  load_average: loadavg().map((x) => round(x)),
};
console.log(JSON.stringify(result, null, 2));
const out = arg('json', '');
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
