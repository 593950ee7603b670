/**
 * Issue 26 micro-benchmark: the worker's transaction row shapers over 100k rows (the shapes a
 * first mirror and a cold load make: wire row → stored row, stored row → engine row, engine row
 * → server row). Run: `npx tsx bench/row-shapers.ts [path to workers/collections/transactions.ts]`
 * (default: this checkout's), e.g. against another checkout to compare before and after.
 * Also times a shaper built by a loop over the field list (no generated literal) for reference.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

type Row = Record<string, unknown> & { id: string; occurred_at: string };
interface Shapers {
  toMirrored: (r: Row) => unknown;
  toEngineRow: (r: Row) => unknown;
  serverRow: (r: Row) => unknown;
}

const N = 100_000;
const path = resolve(process.argv[2] ?? 'workers/collections/transactions.ts');
const shapers = (await import(pathToFileURL(path).href)) as Shapers;

const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const rows: Row[] = Array.from({ length: N }, (_, i) => ({
  id: uuid(i), card_id: uuid(i % 300), user_id: uuid(i % 40), merchant_name: `Merchant ${i % 900}`,
  merchant_category: 'Restaurants', amount: (i * 37) % 100_000, currency: 'USD',
  occurred_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), state: 'CLEARED',
  memo: i % 3 ? null : 'lunch', gl_account_id: null, department_id: null, location_id: null, tracking: {},
  receipt_ids: [], accounting_synced_at: null, merchant_country: 'US', fraud_status: null, fraud_reasons: [],
  dispute_id: null, attendees: [], business_id: uuid(1), change_seq: i + 1, updated_at: '2026-01-01T00:00:00.000Z', deleted: false,
}));

const FIELDS = Object.keys(rows[0]!);
const loopShaper = (r: Row) => {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) out[f] = r[f] ?? null;
  return out;
};

function time(label: string, fn: (r: Row) => unknown, input: readonly Row[]) {
  const ms: number[] = [];
  let sink: unknown;
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    for (let i = 0; i < input.length; i++) sink = fn(input[i]!);
    ms.push(performance.now() - start);
  }
  void sink;
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(28)} median ${ms[3]!.toFixed(1)} ms  best ${ms[0]!.toFixed(1)} ms  (${input.length} rows, 7 rounds)`);
}

console.log(`shapers from ${path}`);
const stored = rows.map((r) => shapers.toMirrored(r) as Row);
const engine = stored.map((r) => shapers.toEngineRow(r) as Row);
time('wire → stored (toMirrored)', shapers.toMirrored, rows);
time('stored → engine', shapers.toEngineRow, stored);
time('engine → server', shapers.serverRow, engine);
time('field loop (no literal)', loopShaper, stored);
