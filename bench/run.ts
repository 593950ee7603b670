/**
 * Ledgerline benchmark: `npm run bench -- --transactions 100000 --json bench/results.json`
 * (`--reimbursements M`: generated claims seeded besides, default transactions / 5; `--bills B`:
 * generated bills, default transactions / 5).
 * One part alone: `npm run bench -- --only ocr --json bench/results.json` (receipt OCR; its
 * metrics and details are merged into an existing results file, the others kept);
 * `npm run bench -- --only procurement --transactions 2000`: issue 28's Requests, Purchase orders and
 * PO page figures alone, printed (bench/procurement.ts).
 * The cost curve: `npm run bench -- --curve` runs the whole benchmark for N = 10,000 and 100,000
 * (`--scale`: and 1,000,000; `--curve-sizes 1000,3000`: any sizes), writes every run to
 * `--json` (default bench/results.json, `{ kind: 'curve', runs }`), prints the growth table
 * (also written to `--curve-md`, default bench/cost-curve.md) and draws `--curve-svg` (default
 * docs/cost-curve.svg). `--curve-report` redraws both from an existing results file, running nothing.
 * `--load-seconds S`: length of each keyset-page load (default 10); `--no-pg`: skip PostgreSQL.
 *
 * One run, real parts only: the built PWA (dist/), the real server (server/testing.ts, PGlite in
 * a temporary directory) seeded with N demo transactions, and Debian's Chromium on a fresh
 * profile. Metrics and goals are described in docs/performance.md. Not part of `npm test`
 * (tests/e2e/bench-smoke.test.ts runs it small).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { runBenchmark } from './measure.ts';
import type { BenchResults } from './metrics.ts';
import { runOcrBenchmark } from './ocr.ts';
import { GOALS, formatDetails, formatTable } from './report.ts';
import { costCurveSvg, curveSizes, curveTable } from './cost-curve.ts';
import { isCurve, readResultsFile, runsOf, type CurveResults, type ResultsFile } from './results-file.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';
import { defaultBills } from '../server/seed/bills.ts';
import { buildApp, DIST_DIR } from './build-app.ts';
import { runProcurementOnly } from './procurement.ts';


const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(100_000),
  reimbursements: z.coerce.number().int().min(0).max(1_000_000).optional(),
  bills: z.coerce.number().int().min(0).max(1_000_000).optional(),
  json: z.string().min(1).optional(),
  'skip-build': z.boolean().default(false),
  only: z.enum(['ocr', 'procurement']).optional(),
  curve: z.boolean().default(false),
  scale: z.boolean().default(false),
  'curve-sizes': z.string().regex(/^\d+(,\d+)+$/, 'a comma-separated list of at least two sizes').optional(),
  'curve-md': z.string().min(1).default('bench/cost-curve.md'),
  'curve-svg': z.string().min(1).default('docs/cost-curve.svg'),
  'curve-report': z.boolean().default(false),
  'load-seconds': z.coerce.number().positive().max(600).optional(),
  'no-pg': z.boolean().default(false),
});

type Args = z.infer<typeof argsSchema>;


function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      transactions: { type: 'string' },
      reimbursements: { type: 'string' },
      bills: { type: 'string' },
      json: { type: 'string' },
      'skip-build': { type: 'boolean' },
      only: { type: 'string' },
      curve: { type: 'boolean' },
      scale: { type: 'boolean' },
      'curve-sizes': { type: 'string' },
      'curve-md': { type: 'string' },
      'curve-svg': { type: 'string' },
      'curve-report': { type: 'boolean' },
      'load-seconds': { type: 'string' },
      'no-pg': { type: 'boolean' },
    },
    strict: true,
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    throw new Error(`bench: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const args = parsed.data;
  if ((args.curve || args.scale || args['curve-sizes']) && (values.transactions !== undefined || values.reimbursements !== undefined || values.bills !== undefined)) {
    throw new Error('bench: a curve sets N itself (reimbursements and bills N / 5): drop --transactions / --reimbursements / --bills, or use --curve-sizes');
  }
  return args;
}

/** `--only ocr`: the OCR metrics, merged into the results file when there is one. */
async function onlyOcr(json: string | undefined, log: (msg: string) => void): Promise<void> {
  const ocr = await runOcrBenchmark(DIST_DIR, log);
  const { details, ...metrics } = ocr;
  console.log(`| metric | value |\n|---|---|\n${Object.entries(metrics).map(([k, v]) => `| \`${k}\` | ${v} |`).join('\n')}`);
  console.log(Object.entries(details).map(([k, v]) => `- ${k}: ${v}`).join('\n'));
  if (!json) return;
  const path = resolve(process.cwd(), json);
  const previous = await readResultsFile(path);
  if (!previous) throw new Error(`bench: --only ocr merges into an existing results file; ${path} has none`);
  const merge = (run: BenchResults): BenchResults => ({
    ...run,
    metrics: { ...run.metrics, ...metrics },
    details: { ...run.details, ...details, receipt_ocr_measured_at: new Date().toISOString() },
  });
  // A curve file: into its largest run (OCR does not depend on N).
  const runs = runsOf(previous);
  const largest = runs[runs.length - 1]!;
  const merged: ResultsFile = isCurve(previous) ? { ...previous, runs: runs.map((r) => (r === largest ? merge(r) : r)) } : merge(previous);
  await writeJson(path, merged);
  log(`merged the OCR metrics into ${path}${isCurve(previous) ? ` (its run of ${largest.transactions})` : ''}`);
}

/** `--only procurement`: the three page figures at `transactions`, printed (no results file: they belong to a full run). */
async function onlyProcurement(transactions: number, log: (msg: string) => void): Promise<void> {
  const { samples, ...metrics } = await runProcurementOnly({ transactions, log });
  console.log(`| metric | value |\n|---|---|\n${Object.entries(metrics).map(([k, v]) => `| \`${k}\` | ${v} |`).join('\n')}`);
  console.log(`- samples (ms, in order): ${samples}`);
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** One full run at `transactions` (reimbursements N / 5 unless given), printed. */
async function benchAt(args: Args, transactions: number, log: (msg: string) => void): Promise<BenchResults> {
  const results = await runBenchmark({
    transactions,
    reimbursements: args.reimbursements ?? defaultReimbursements(transactions),
    bills: args.bills ?? defaultBills(transactions),
    distDir: DIST_DIR,
    log,
    loadSeconds: args['load-seconds'],
    ...(args['no-pg'] ? { pgAdminUrl: null } : {}),
  });
  console.log(formatTable(results, GOALS));
  console.log(`\n${formatDetails(results)}`);
  return results;
}

/** The growth table (printed and written) and the chart, from the runs. */
async function writeCurve(args: Args, runs: BenchResults[], log: (msg: string) => void): Promise<void> {
  const table = curveTable(runs);
  console.log(`\n${table}`);
  const md = resolve(process.cwd(), args['curve-md']);
  const svg = resolve(process.cwd(), args['curve-svg']);
  await mkdir(dirname(md), { recursive: true });
  await writeFile(md, `${table}\n`);
  await mkdir(dirname(svg), { recursive: true });
  await writeFile(svg, costCurveSvg(runs));
  log(`wrote ${md} and ${svg}`);
}

async function main(): Promise<void> {
  const args = parseCli(process.argv.slice(2));
  const log = (msg: string) => console.error(`[bench] ${msg}`);
  const curve = args.curve || args.scale || args['curve-sizes'] !== undefined;
  const json = args.json ?? (curve || args['curve-report'] ? 'bench/results.json' : undefined);
  if (args['curve-report']) {
    const file = await readResultsFile(resolve(process.cwd(), json!));
    if (!file) throw new Error(`bench: --curve-report: no results file at ${json}`);
    return writeCurve(args, runsOf(file), log);
  }
  if (!args['skip-build']) buildApp();
  if (args.only === 'ocr') return onlyOcr(json, log);
  if (args.only === 'procurement') return onlyProcurement(args.transactions, log);
  if (!curve) {
    const results = await benchAt(args, args.transactions, log);
    if (json) await writeJson(resolve(process.cwd(), json), results);
    if (json) log(`wrote ${json}`);
    return;
  }
  const sizes = curveSizes({ scale: args.scale, sizes: args['curve-sizes'] });
  const file: CurveResults = { kind: 'curve', started_at: new Date().toISOString(), runs: [] };
  for (const n of sizes) {
    log(`cost curve: run ${file.runs.length + 1} of ${sizes.length}, N = ${n}`);
    file.runs.push(await benchAt(args, n, log));
    // Written after every run, so a long curve that fails at 1M keeps the runs before it.
    await writeJson(resolve(process.cwd(), json!), file);
  }
  log(`wrote ${json}`);
  await writeCurve(args, file.runs, log);
}

main().then(
  // The PGlite and browser handles are closed; exit explicitly so a stray timer cannot hold the run.
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
