/**
 * Ledgerline benchmark: `npm run bench -- --transactions 100000 --json bench/results.json`
 * (`--reimbursements M`: generated claims seeded besides, default transactions / 5).
 * One part alone: `npm run bench -- --only ocr --json bench/results.json` (receipt OCR; its
 * metrics and details are merged into an existing results file, the others kept).
 *
 * One run, real parts only: the built PWA (dist/), the real server (server/testing.ts, PGlite in
 * a temporary directory) seeded with N demo transactions, and Debian's Chromium on a fresh
 * profile. Metrics and goals are described in docs/performance.md. Not part of `npm test`
 * (tests/e2e/bench-smoke.test.ts runs it small).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { runBenchmark, type BenchResults } from './measure.ts';
import { runOcrBenchmark } from './ocr.ts';
import { GOALS, formatDetails, formatTable } from './report.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(100_000),
  reimbursements: z.coerce.number().int().min(0).max(1_000_000).optional(),
  json: z.string().min(1).optional(),
  'skip-build': z.boolean().default(false),
  only: z.enum(['ocr']).optional(),
});

function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      transactions: { type: 'string' },
      reimbursements: { type: 'string' },
      json: { type: 'string' },
      'skip-build': { type: 'boolean' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    throw new Error(`bench: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** Builds the app so the numbers describe the current source, not a stale dist/. */
function build(): void {
  const res = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error('bench: vite build failed');
}

/** `--only ocr`: the OCR metrics, merged into the results file when there is one. */
async function onlyOcr(json: string | undefined, log: (msg: string) => void): Promise<void> {
  const ocr = await runOcrBenchmark(resolve(ROOT, 'dist'), log);
  const { details, ...metrics } = ocr;
  console.log(`| metric | value |\n|---|---|\n${Object.entries(metrics).map(([k, v]) => `| \`${k}\` | ${v} |`).join('\n')}`);
  console.log(Object.entries(details).map(([k, v]) => `- ${k}: ${v}`).join('\n'));
  if (!json) return;
  const path = resolve(process.cwd(), json);
  const previous = (await readFile(path, 'utf8').then(JSON.parse, () => null)) as BenchResults | null;
  if (!previous) throw new Error(`bench: --only ocr merges into an existing results file; ${path} has none`);
  const merged: BenchResults = {
    ...previous,
    metrics: { ...previous.metrics, ...metrics },
    details: { ...previous.details, ...details, receipt_ocr_measured_at: new Date().toISOString() },
  };
  await writeFile(path, `${JSON.stringify(merged, null, 2)}\n`);
  log(`merged the OCR metrics into ${path}`);
}

async function main(): Promise<void> {
  const args = parseCli(process.argv.slice(2));
  if (!args['skip-build']) build();
  const log = (msg: string) => console.error(`[bench] ${msg}`);
  if (args.only === 'ocr') return onlyOcr(args.json, log);
  const results: BenchResults = await runBenchmark({
    transactions: args.transactions,
    reimbursements: args.reimbursements ?? defaultReimbursements(args.transactions),
    distDir: resolve(ROOT, 'dist'),
    log,
  });
  console.log(formatTable(results, GOALS));
  console.log(`\n${formatDetails(results)}`);
  if (args.json) {
    const path = resolve(process.cwd(), args.json);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path}`);
  }
}

main().then(
  // The PGlite and browser handles are closed; exit explicitly so a stray timer cannot hold the run.
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
