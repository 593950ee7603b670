/**
 * Keeps the benchmark working: runs `bench/run.ts` end to end with 500 transactions and 100
 * reimbursements (on the
 * dist/ that `npm run test:e2e` just built) and checks that it reports every metric as a finite
 * number. The figures themselves are not judged here (docs/performance.md holds the goals).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { METRIC_ORDER } from '../../bench/report.ts';

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
    const results = JSON.parse(await readFile(json, 'utf8')) as {
      transactions: number;
      reimbursements: number;
      metrics: Record<string, unknown>;
      details: Record<string, unknown>;
    };
    expect(results.transactions).toBe(500);
    // One generated claim per five transactions, plus the demo's hand-made ones, all mirrored.
    expect(results.reimbursements).toBe(100);
    expect(results.details.mirrored_reimbursements).toBeGreaterThan(100);
    expect(results.details.mirrored_approvals).toBeGreaterThan(0);
    expect(Object.keys(results.metrics).sort()).toEqual([...METRIC_ORDER].sort());
    for (const key of METRIC_ORDER) {
      const value = results.metrics[key];
      expect(typeof value === 'number' && Number.isFinite(value), `${key} = ${String(value)}`).toBe(true);
    }
    expect(output).toContain('| `local_search_p95_ms` |');
  });
});
