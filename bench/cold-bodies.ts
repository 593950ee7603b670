/**
 * Issue 33: what a restart costs the commands that read every row body, and where it goes:
 * `npx tsx bench/cold-bodies.ts --transactions 20000 [--settle 20] [--out /tmp/cold-bodies]` (the built app in
 * dist/: run `npm run build` first).
 *
 * Seeds the real server (PGlite), signs the admin in to the built app in Chromium, waits for the
 * first mirror, then reloads offline (the benchmark's cold start: the engine restored from its
 * snapshot, its bodies not in memory) and, as soon as the first row is painted, exports every
 * transaction as CSV with the data worker CPU-profiled, then once more (bodies in memory). Prints each export's took_ms, the worker's
 * `navigator.deviceMemory` and the functions with the most self time during the export after the
 * restart; the `.cpuprofile` is kept in `--out`. Not part of `npm test`; not a benchmark figure.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { startTestServer } from '../server/testing.ts';
import { launchBrowser, type BrowserSession } from '../tests/support/browser.ts';
import { exportAllCsv, installProbe, pageMark, waitForHook } from './app-probe.ts';
import { selfTimes, type CpuProfile } from './cpu-profile.ts';
import { mirrorAsAdmin } from './phases.ts';
import { workerCdp } from './worker-cdp.ts';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(20_000),
  out: z.string().min(1).default('/tmp/cold-bodies'),
  /** After the first mirror: time for the text index to complete and the engine's snapshot to be taken (the restart restores it). */
  settle: z.coerce.number().int().min(0).max(600).default(20),
});

async function profiledExport(b: BrowserSession, out: string) {
  const worker = await workerCdp(b.page);
  try {
    const memory = await worker.send<{ result: { value?: unknown } }>('Runtime.evaluate', { expression: 'navigator.deviceMemory', returnByValue: true });
    await worker.send('Profiler.enable');
    await worker.send('Profiler.setSamplingInterval', { interval: 500 });
    await worker.send('Profiler.start');
    const csv = await exportAllCsv(b.page);
    const { profile } = await worker.send<{ profile: CpuProfile }>('Profiler.stop');
    await writeFile(join(out, 'export-after-restart.cpuprofile'), JSON.stringify(profile));
    return { csv, deviceMemory: memory.result.value, profile: selfTimes(profile) };
  } finally {
    await worker.close();
  }
}

async function main() {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { transactions: { type: 'string' }, out: { type: 'string' }, settle: { type: 'string' } }, strict: true });
  const args = argsSchema.parse(values);
  const log = (s: string) => console.log(`[cold-bodies ${new Date().toISOString().slice(11, 19)}] ${s}`);
  await mkdir(args.out, { recursive: true });
  const n = args.transactions;
  log(`seeding ${n} transactions`);
  const server = await startTestServer({ transactions: n, serveDist: true });
  let browser: BrowserSession | null = null;
  try {
    browser = await launchBrowser({ baseURL: server.url });
    await installProbe(browser.context);
    const { page, context } = browser;
    log('first mirror');
    await mirrorAsAdmin(page);
    await new Promise((resolve) => setTimeout(resolve, args.settle * 1000));
    await context.setOffline(true);
    await page.reload({ waitUntil: 'commit' });
    const firstRow = await pageMark(page, 'first_row_painted', 60_000);
    await waitForHook(page);
    const after = await profiledExport(browser, args.out);
    log(`first row after the restart: ${firstRow.toFixed(0)} ms; export right after it: ${after.csv.ms.toFixed(0)} ms, ${after.csv.rows} rows (worker navigator.deviceMemory ${String(after.deviceMemory)})`);
    log(`worker profile during it: span ${after.profile.spanMs} ms, idle ${after.profile.idleMs} ms; self time:\n${after.profile.top.map((t) => `${String(t.ms).padStart(7)} ms  ${t.fn}`).join('\n')}`);
    const idle = await exportAllCsv(page);
    log(`export once more: ${idle.ms.toFixed(0)} ms`);
    await context.setOffline(false);
    console.log(JSON.stringify({ transactions: n, first_row_ms: firstRow, export_after_restart_ms: after.csv.ms, export_again_ms: idle.ms }));
  } finally {
    await browser?.close();
    await server.close();
  }
}

await main();
