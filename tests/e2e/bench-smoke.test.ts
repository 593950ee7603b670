/**
 * Keeps the benchmark working: runs `bench/run.ts` end to end with 500 transactions and 100
 * reimbursements (on the
 * dist/ that `npm run test:e2e` just built) and checks that it reports every metric as a finite
 * number (the PostgreSQL keyset figures may be missing when PostgreSQL does not answer: then the
 * details say why). The figures themselves are not judged here (docs/performance.md holds the goals).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OPTIONAL_METRICS } from '../../bench/measure.ts';
import { METRIC_ORDER } from '../../bench/report.ts';
import { readResultsFile, runsOf } from '../../bench/results-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string | null = null;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs the bench CLI as `npm run bench` would (tsx), collecting its output for failure messages. */
function runBench(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'bench/run.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('benchmark smoke run', () => {
  it('measures every metric as a finite number with 500 transactions', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledgerline-bench-'));
    const json = join(dir, 'results.json');
    const { code, output } = await runBench(['--transactions', '500', '--skip-build', '--json', json]);
    expect(code, output).toBe(0);
    const file = await readResultsFile(json);
    expect(file).not.toBeNull();
    const runs = runsOf(file!);
    expect(runs).toHaveLength(1);
    const results = runs[0]!;
    expect(results.transactions).toBe(500);
    // One generated claim per five transactions, plus the demo's hand-made ones, all mirrored.
    expect(results.reimbursements).toBe(100);
    expect(results.details.mirrored_reimbursements).toBeGreaterThan(100);
    expect(results.details.mirrored_approvals).toBeGreaterThan(0);
    expect(Object.keys(results.metrics).sort()).toEqual([...METRIC_ORDER].sort());
    const pgMissing = String(results.details.server_page_pg).startsWith('not measured');
    for (const key of METRIC_ORDER) {
      const value: unknown = results.metrics[key];
      // NaN is written as null: only a missing PostgreSQL may leave its figures out.
      if (pgMissing && OPTIONAL_METRICS.has(key)) expect(value, key).toBeNull();
      else expect(typeof value === 'number' && Number.isFinite(value), `${key} = ${String(value)}`).toBe(true);
    }
    // The new keys of issue 13 measured something real.
    expect(results.metrics.worker_heap_mb).toBeGreaterThan(1);
    expect(results.details.search_ready_total).toBeGreaterThan(1);
    expect(results.details.change_feed_rows).toBeGreaterThanOrEqual(Number(results.details.mirrored_rows));
    expect(results.metrics.server_page_rps).toBeGreaterThan(0);
    expect(output).toContain('| `local_search_p95_ms` |');
  });
});
