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
 * Issue 33, row bodies out of the heap: the engine is built as the mirror builds it (columns and
 * an LRU of `transactionBodies()` row bodies (a computer: 150k): `--bodies N` to change it); `--bodies all` keeps
 * every body (the engine before). `load_cpu_ms` / `index_cpu_ms` / `search_cpu_mean_ms`: the
 * process's CPU time for the same work, steadier than wall time when the machine is shared. The bodies live in a stand-in for IndexedDB, `BodyStore` (bench/body-store.ts): each row's JSON in one
 * growing byte buffer (an ArrayBuffer, outside the JS heap), read back by id with a JSON.parse
 * per row, as the mirror reads a page's missing bodies (`MirrorRuntime.query`: one bulk read,
 * then `hold`). Every page figure includes that read. `heap_mb` is the JS heap after GC: the
 * engine (ids, `slotById`, orders, the LRU's bodies, interned strings), the benchmark's world
 * and queries — not the store; `array_buffers_mb` is the engine's typed arrays (columns, sort
 * keys, token pool, postings, money) and `body_store_mb` the store's bytes, both apart.
 * `--snapshot` (issue 33): the loaded engine's `snapshot()` (`snapshot_ms`), its size
 * (`snapshot_mb`: typed arrays' bytes and strings at 2 bytes a character), a structured clone of it
 * (`clone_ms`: about what IndexedDB's write and read serialise), `restore()` into a fresh engine
 * (`restore_ms`) and that engine's first search answered in full (`restored_first_query_ms`;
 * `restored_search_ready_ms` = restore + first query, the engine's part of a reload from the
 * snapshot); every search's total is checked equal to the original's.
 * Timing figures are noisy on a shared machine: note the load average beside them.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { TransactionFilter, TransactionSort } from '../schema/transaction-query.ts';
import { createTransactionEngine, toEngineRow, transactionText, transactionBodies, type EngineRow } from '../workers/collections/transactions.ts';
import { BodyStore } from './body-store.ts';
import { benchQueries, benchWorld, rowPage } from './engine-rows.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const ROWS = Number(arg('rows', '100000'));
const BODIES = arg('bodies', String(transactionBodies()));
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
/** CPU time (user + system) this process spent since `since`, in ms: steadier than wall time on a shared machine. */
const cpuMs = (since?: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
};


const world = benchWorld(Math.max(50, Math.round(Math.sqrt(ROWS) / 2)));
const engine = createTransactionEngine<EngineRow>(transactionText(world.refs), BODIES === 'all' ? {} : { bodies: Number(BODIES) });
const store = new BodyStore();
const queries = benchQueries(world);
const heapBefore = heapMb();

// The load: pages as the mirror hands them over (fresh strings), then the text index in slices.
// Only the engine's work is timed: making the synthetic page (the mirror's read) is not.
let loadMs = 0;
let loadCpuMs = 0;
for (let from = 0; from < ROWS; from += PAGE) {
  const rows = rowPage(world, from, Math.min(PAGE, ROWS - from));
  store.put(rows);
  const cpu = process.cpuUsage();
  loadMs += time(() => engine.upsertMany(rows.map(toEngineRow)))[1];
  loadCpuMs += cpuMs(cpu);
}
const indexCpu = process.cpuUsage();
const [, indexMs] = time(() => {
  while (engine.indexSome(SLICE) > 0);
});
const indexCpuMs = cpuMs(indexCpu);
/** A page as MirrorRuntime.query makes it: the engine's ids and held bodies, the missing ones read from the store and held. */
const page = (filter: TransactionFilter, sort: TransactionSort = 'occurred_desc', offset = 0, e = engine) => {
  const ticket = e.ticket();
  const p = e.page({ filter, sort, offset, limit: 50 });
  const missing = p.ids.filter((_, i) => p.rows[i] === undefined);
  if (missing.length > 0) {
    const read = [...store.get(missing).values()].map(toEngineRow);
    e.hold(read, ticket);
    const byId = new Map(read.map((r) => [r.id, r]));
    p.ids.forEach((id, i) => (p.rows[i] ??= byId.get(id)));
  }
  return { rows: p.rows as EngineRow[], total: p.total };
};
const [, firstMs] = time(() => page({ q: queries[0]! }));
const searchReadyMs = loadMs + indexMs + firstMs;

// Search: one warm-up pass (JIT), then the timed pass.
for (const q of queries) page({ q });
const searchMs: number[] = [];
const totals: number[] = [];
const searchCpu = process.cpuUsage();
for (const q of queries) {
  const [r, ms] = time(() => page({ q }));
  searchMs.push(ms);
  totals.push(r.total);
}

const searchCpuMeanMs = cpuMs(searchCpu) / queries.length;

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

/** `--snapshot`: the loaded engine saved and restored into a fresh one, which must answer every search with the same total. */
function snapshotFigures() {
  const [snap, snapshotMs] = time(() => engine.snapshot());
  const [cloned, cloneMs] = time(() => structuredClone(snap));
  let bytes = 0;
  JSON.stringify(snap, (_key, value: unknown) => {
    if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    else if (typeof value === 'string') bytes += value.length * 2;
    return ArrayBuffer.isView(value) ? undefined : value;
  });
  const restored = createTransactionEngine<EngineRow>(transactionText(world.refs), { bodies: Number(BODIES) });
  const [, restoreMs] = time(() => restored.restore(cloned));
  const [, firstQueryMs] = time(() => page({ q: queries[0]! }, 'occurred_desc', 0, restored));
  queries.forEach((q, i) => {
    if (page({ q }, 'occurred_desc', 0, restored).total !== totals[i]) throw new Error(`restored engine: another total for ${q}`);
  });
  return {
    snapshot_ms: round(snapshotMs, 0), snapshot_mb: round(bytes / 1e6, 1), clone_ms: round(cloneMs, 0), restore_ms: round(restoreMs, 0),
    restored_first_query_ms: round(firstQueryMs, 1), restored_search_ready_ms: round(restoreMs + firstQueryMs, 0),
  };
}
// Typed arrays' backing stores live outside the JS heap: counted apart, so nothing hides there
// (the stand-in store's bytes apart from the engine's arrays).
const storeMb = store.megabytes;
const buffersMb = process.memoryUsage().arrayBuffers / 1e6 - storeMb;
// After the memory figures: the snapshot's copies are not the engine's.
const snapshot = process.argv.includes('--snapshot') && BODIES !== 'all' ? snapshotFigures() : {};
const result = {
  rows: ROWS,
  bodies: BODIES,
  bodies_in_memory: engine.bodiesInMemory,
  load_ms: round(loadMs, 0),
  index_ms: round(indexMs, 0),
  first_query_ms: round(firstMs, 1),
  search_ready_ms: round(searchReadyMs, 0),
  load_cpu_ms: round(loadCpuMs, 0),
  index_cpu_ms: round(indexCpuMs, 0),
  heap_mb: round(heapAfter, 1),
  engine_mb: round(heapAfter - heapBefore, 1),
  array_buffers_mb: round(buffersMb, 1),
  body_store_mb: round(storeMb, 1),
  search_p50_ms: round(quantile(searchMs, 0.5)),
  search_p95_ms: round(quantile(searchMs, 0.95)),
  search_cpu_mean_ms: round(searchCpuMeanMs, 3),
  search_max_ms: round(Math.max(...searchMs)),
  slowest: searchMs.map((ms, i) => ({ q: queries[i]!, ms: round(ms), total: totals[i]! })).sort((a, b) => b.ms - a.ms).slice(0, 5),
  filter_first_page_p50_ms: round(quantile(firstPages, 0.5)),
  filter_first_page_p95_ms: round(quantile(firstPages, 0.95)),
  filter_later_page_p95_ms: round(quantile(laterPages, 0.95), 3),
  select_all: { q: selectQ, ids: selected, median_ms: round(quantile(selectMs, 0.5)), max_ms: round(Math.max(...selectMs)) },
  ...snapshot,
  load_average: loadavg().map((x) => round(x)),
};
console.log(JSON.stringify(result, null, 2));
const out = arg('json', '');
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
