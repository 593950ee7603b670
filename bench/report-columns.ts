/**
 * Transactions reports at scale, no browser (issue 33): `npx tsx bench/report-columns.ts --rows 1000000`
 * (`--runs 9`, `--body-runs 3` (0: the columns alone), `--json file`). The transactions engine is built as the mirror
 * builds it (columns and an LRU of `BODIES` bodies: 500, the size issue 33's second session shipped, so the body path reads back) over bench/engine-rows.ts's rows,
 * and each report is answered both ways, their rows checked equal:
 * - `columns`: workers/report-columns.ts over the engine's typed columns (what the worker does now);
 * - `bodies`: the path before, `aggregateReport` over every matching row's body, the bodies the
 *   LRU does not hold read back 2,000 at a time from a stand-in for IndexedDB (each row's JSON in
 *   one byte buffer, a JSON.parse per row; the browser's IndexedDB reads are slower still), and
 *   `aggregate_ms`, the aggregation alone over bodies already in memory (the body path's floor, what
 *   an LRU holding every body would cost; measured at ≤ 100k rows, the parsed rows held at once).
 * Medians of the runs (a warm-up first), wall and CPU; `bodies_read` per report is a count, not a time.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { aggregateReport, type ReportQuery } from '../schema/reports.ts';
import { createTransactionEngine, toEngineRow, transactionText, type EngineRow } from '../workers/collections/transactions.ts';
import { transactionReportOverColumns } from '../workers/report-columns.ts';
import { BodyStore } from './body-store.ts';
import { benchWorld, rowPage } from './engine-rows.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const ROWS = Number(arg('rows', '100000'));
const RUNS = Number(arg('runs', '9'));
const BODY_RUNS = Number(arg('body-runs', '3'));
const PAGE = 2_000;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;


const world = benchWorld(Math.max(50, Math.round(Math.sqrt(ROWS) / 2)));
/** The body path's LRU (bodies read back from the store stand-in); the mirror's own is `transactionBodies()`. */
const BODIES = 500;
const engine = createTransactionEngine<EngineRow>(transactionText(world.refs), { bodies: BODIES });
const store = new BodyStore();
for (let from = 0; from < ROWS; from += PAGE) {
  const rows = rowPage(world, from, Math.min(PAGE, ROWS - from));
  store.put(rows);
  engine.upsertMany(rows.map(toEngineRow));
}

/** The body path: every matching row's body, from the LRU or read back a page at a time, aggregated as it comes. */
function overBodies(q: ReportQuery): { rows: ReturnType<typeof aggregateReport>; read: number } {
  const ids = engine.matchingIds(q.filters ?? {});
  let read = 0;
  function* bodies(): Generator<EngineRow> {
    for (let from = 0; from < ids.length; from += PAGE) {
      const page: EngineRow[] = [];
      for (const id of ids.slice(from, from + PAGE)) {
        const held = engine.get(id);
        if (held) page.push(held);
        else {
          page.push(toEngineRow(store.one(id)));
          read++;
        }
      }
      yield* page;
    }
  }
  return { rows: aggregateReport(bodies(), q), read };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
function timed<T>(runs: number, fn: () => T): { out: T; wall: number; cpu: number } {
  let out = fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = cpu();
    const t0 = performance.now();
    out = fn();
    walls.push(performance.now() - t0);
    cpus.push(cpu() - c0);
  }
  return { out, wall: median(walls), cpu: median(cpus) };
}

const tx = (o: Omit<ReportQuery, 'collection'>): ReportQuery => ({ collection: 'transactions', ...o });
const REPORTS: [string, ReportQuery][] = [
  ['month × department, sum', tx({ time_grain: 'month', dimension: 'department', measure: 'sum' })],
  ['span × none, count', tx({ time_grain: 'span', dimension: 'none', measure: 'count' })],
  ['quarter × GL account, average, CLEARED', tx({ time_grain: 'quarter', dimension: 'gl_account', measure: 'average', filters: { states: ['CLEARED'] } })],
  ['day × merchant, sum', tx({ time_grain: 'day', dimension: 'merchant', measure: 'sum', from: '2025-01-01', to: '2025-12-31' })],
  ['week × user, sum, text "uber"', tx({ time_grain: 'week', dimension: 'user', measure: 'sum', filters: { q: 'uber' } })],
];
while (engine.indexSome(10_000) > 0);

const results = REPORTS.map(([name, q]) => {
  const columns = timed(RUNS, () => transactionReportOverColumns(engine, q)!);
  // `--body-runs 0`: the columns alone (the body path takes a minute a report at 1M).
  const bodies = BODY_RUNS > 0 ? timed(BODY_RUNS, () => overBodies(q)) : null;
  if (bodies && JSON.stringify(columns.out.rows) !== JSON.stringify(bodies.out.rows)) throw new Error(`${name}: the column report differs from the body path`);
  let aggregate: number | null = null;
  if (ROWS <= 100_000) {
    const held = engine.matchingIds(q.filters ?? {}).map((id) => engine.get(id) ?? toEngineRow(store.one(id)));
    aggregate = timed(RUNS, () => aggregateReport(held, q)).wall;
  }
  return {
    report: name, matching: columns.out.scanned, groups: columns.out.rows.length,
    columns_ms: round(columns.wall, 2), columns_cpu_ms: round(columns.cpu, 2),
    bodies_ms: bodies && round(bodies.wall), bodies_cpu_ms: bodies && round(bodies.cpu), bodies_read: bodies?.out.read ?? null,
    aggregate_ms: aggregate === null ? null : round(aggregate, 2),
  };
});
const result = { rows: ROWS, bodies_in_memory: engine.bodiesInMemory, runs: RUNS, body_runs: BODY_RUNS, reports: results, load_average: loadavg().map((x) => round(x, 2)) };
console.log(JSON.stringify(result, null, 2));
const out = arg('json', '');
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
