/**
 * Where a first mirror spends its time as it grows (issue 13): `npx tsx bench/mirror-profile.ts
 * --transactions 300000 [--segment-seconds 60] [--out /tmp/mirror-profile] [--skip-build] [--no-floor]`.
 *
 * Seeds the real server (PGlite, N transactions, N / 5 claims, receipts), signs the admin in to
 * the built app in Chromium, and while the first mirror runs: samples the sync status every
 * 2 s (rows loaded of total) and CPU-profiles the data worker and the page in consecutive
 * segments. Each segment prints its mirror rate and the functions with the most self time, so
 * work that grows with the mirror (a rate that falls, a function whose share rises) shows
 * segment by segment. The `.cpuprofile` files (Chrome DevTools' format) are kept in `--out`.
 * Not part of `npm test`; not a benchmark figure (profiling slows what it measures).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CDPSession, Page } from 'playwright-core';
import { z } from 'zod';
import { startTestServer } from '../server/testing.ts';
import { defaultReimbursements } from '../server/seed/reimbursements.ts';
import { defaultBills } from '../server/seed/bills.ts';
import { launchBrowser, signIn, type BrowserSession } from '../tests/support/browser.ts';
import { installProbe, waitForHook } from './app-probe.ts';
import { buildApp } from './build-app.ts';
import { selfTimes, type CpuProfile } from './cpu-profile.ts';
import { ADMIN } from './phases.ts';
import { fetchMirrorRows, measureRawIdbPut } from './raw-idb.ts';
import { workerCdp, type WorkerCdp } from './worker-cdp.ts';
import { apiSignIn } from '../tests/support/api.ts';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(300_000),
  'segment-seconds': z.coerce.number().int().min(5).max(600).default(60),
  out: z.string().min(1).default('/tmp/mirror-profile'),
  'skip-build': z.boolean().default(false),
  'no-floor': z.boolean().default(false),
});


type Status = { progress: { loaded: number; total: number } | null; mirrored: boolean };

/** One profiler: the data worker's (through `workerCdp`) or the page's own session. */
interface Profiler {
  name: string;
  send<T>(method: string, params?: Record<string, unknown>): Promise<T>;
}

const pageProfiler = (cdp: CDPSession): Profiler => ({
  name: 'page',
  send: <T,>(method: string, params?: Record<string, unknown>) => cdp.send(method as never, params as never) as Promise<T>,
});
const workerProfiler = (w: WorkerCdp): Profiler => ({ name: 'worker', send: (m, p) => w.send(m, p) });

async function start(p: Profiler): Promise<void> {
  await p.send('Profiler.enable');
  await p.send('Profiler.setSamplingInterval', { interval: 1000 });
  await p.send('Profiler.start');
}


const TICKS_PER_S = 100;

/**
 * CPU seconds used so far by this Node process (the server and PGlite run in it) and by each
 * Chromium process of the profile, by role (`browser`: where IndexedDB commits; `renderer`: the
 * page and the data worker; `gpu-process`, `utility:<sub-type>`), from /proc (Linux only).
 */
async function cpuSeconds(userDataDir: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const add = (role: string, stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out[role] = (out[role] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  };
  add('node (server)', await readFile('/proc/self/stat', 'utf8'));
  // Chromium's processes: the browser (our profile directory on its command line) and its
  // descendants (renderers are forked by the zygote, run as /proc/self/exe and do not name it).
  const procs = new Map<number, { ppid: number; cmd: string[]; stat: string }>();
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // Zygote-forked processes rewrite their command line as one space-separated string.
      const cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split(/[\0 ]/);
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      procs.set(Number(pid), { ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]), cmd, stat });
    } catch {
      // the process ended meanwhile
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = procs.get(pid); p; p = procs.get(p.ppid)) {
      if (!p.cmd.some((a) => a.startsWith('--type=')) && p.cmd.some((a) => a.includes(userDataDir))) return true;
    }
    return false;
  };
  for (const [pid, p] of procs) {
    if (!ours(pid)) continue;
    const type = p.cmd.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
    const sub = p.cmd.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
    add(sub ? `utility:${sub}` : type, p.stat);
  }
  return out;
}

const cpuDelta = (now: Record<string, number>, before: Record<string, number>) =>
  Object.entries(now).map(([role, s]) => `${role} ${(s - (before[role] ?? 0)).toFixed(1)} s`).join(', ');

async function status(page: Page): Promise<Status> {
  return page.evaluate('window.__ledgerlineBench.api.status()') as Promise<Status>;
}

/** The IndexedDB floor (bench/raw-idb.ts) for the same rows, with the CPU each process spends on it. */
async function floor(url: string, browser: BrowserSession, log: (msg: string) => void): Promise<void> {
  const rows = await fetchMirrorRows(await apiSignIn(url, ADMIN.email, ADMIN.password), SYNC_BATCH_DEFAULT);
  const before = await cpuSeconds(browser.userDataDir);
  const ms = await measureRawIdbPut(browser.context, Number(new URL(url).port), rows, SYNC_BATCH_DEFAULT);
  log(`floor: ${rows.length} rows put in ${Math.round(ms)} ms; CPU: ${cpuDelta(await cpuSeconds(browser.userDataDir), before)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      transactions: { type: 'string' },
      'segment-seconds': { type: 'string' },
      out: { type: 'string' },
      'skip-build': { type: 'boolean' },
      'no-floor': { type: 'boolean' },
    },
    strict: true,
  });
  const args = argsSchema.parse(values);
  const log = (msg: string) => console.error(`[profile ${new Date().toISOString().slice(11, 19)}] ${msg}`);
  if (!args['skip-build']) buildApp();
  await mkdir(args.out, { recursive: true });
  const n = args.transactions;
  log(`seeding ${n} transactions, ${defaultReimbursements(n)} claims and receipts`);
  const server = await startTestServer({ transactions: n, reimbursements: defaultReimbursements(n), bills: defaultBills(n), receipts: true, serveDist: true });
  const browser = await launchBrowser({ baseURL: server.url });
  let worker: WorkerCdp | null = null;
  try {
    await installProbe(browser.context);
    const { page } = browser;
    // The floor first, with the CPU each process spends on it: the mirror's figures compare to it.
    if (!args['no-floor']) await floor(server.url, browser, log);
    await page.goto('/');
    await page.getByLabel('Email').waitFor({ timeout: 60_000 });
    await signIn(page, ADMIN.email, ADMIN.password, 600_000);
    await waitForHook(page, 600_000);
    worker = await workerCdp(page);
    const profilers = [workerProfiler(worker), pageProfiler(await page.context().newCDPSession(page))];
    for (const p of profilers) await start(p);
    const t0 = Date.now();
    let segment = 0;
    let segmentStart = t0;
    let loadedAtStart = 0;
    let last: Status = await status(page);
    let cpuAtStart = await cpuSeconds(browser.userDataDir);
    const endSegment = async (final: boolean) => {
      const loaded = last.progress?.loaded ?? loadedAtStart;
      const seconds = (Date.now() - segmentStart) / 1000;
      const heap = await worker!.send<{ usedSize: number }>('Runtime.getHeapUsage');
      const cpu = await cpuSeconds(browser.userDataDir);
      log(`segment ${segment}: ${loadedAtStart} → ${loaded} rows in ${seconds.toFixed(0)} s = ${Math.round((loaded - loadedAtStart) / seconds)} rows/s; worker heap ${Math.round(heap.usedSize / 2 ** 20)} MB`);
      log(`  CPU: ${cpuDelta(cpu, cpuAtStart)}`);
      cpuAtStart = cpu;
      for (const p of profilers) {
        const { profile } = await p.send<{ profile: CpuProfile }>('Profiler.stop');
        await writeFile(join(args.out, `${p.name}-${String(segment).padStart(2, '0')}.cpuprofile`), JSON.stringify(profile));
        const s = selfTimes(profile);
        console.log(`\n## ${p.name}, segment ${segment} (${s.spanMs} ms, idle ${s.idleMs} ms)`);
        for (const t of s.top) console.log(`${String(t.ms).padStart(7)} ms  ${t.fn}`);
        if (!final) await start(p);
      }
      segment += 1;
      segmentStart = Date.now();
      loadedAtStart = loaded;
    };
    for (;;) {
      await new Promise((res) => setTimeout(res, 2000));
      last = await status(page);
      if (last.mirrored) break;
      if (Date.now() - segmentStart >= args['segment-seconds'] * 1000) await endSegment(false);
      if (Date.now() - t0 > 60 * 60_000) throw new Error('the first mirror did not finish within an hour');
    }
    await endSegment(true);
    log(`first mirror of ${n} transactions complete after ${((Date.now() - t0) / 1000).toFixed(0)} s (profiled; profiles in ${args.out})`);
  } finally {
    await worker?.close();
    await browser.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
