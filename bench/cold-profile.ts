/**
 * Where an offline cold start spends its time (cold_start_first_page_ms, issue 26):
 * `npx tsx bench/cold-profile.ts --transactions 100000 --runs 4 [--probe 2] [--out /tmp/cold-profile]`.
 *
 * Seeds the real server (PGlite, N transactions, N / 5 claims and bills, receipts), signs the admin
 * in to the built app (dist/: run `npx vite build` first) in Chromium, waits for the first mirror,
 * then reloads offline `--runs` times as the benchmark's cold start does (the same first-row mark).
 * The last `--probe` runs are instrumented (they are slower, so their figure is not the metric):
 * the data worker is caught at its start (DevTools auto-attach, waiting for the debugger) and
 * records, on the wall clock, its IndexedDB opens and reads, its messages with the page and the
 * chunks it imports; the page and the worker are CPU-profiled until the first row. Each probed
 * run prints that timeline and the functions with the most self time; the `.cpuprofile` files
 * and the raw logs are kept in `--out`. Not part of `npm test`; not a benchmark figure.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CDPSession } from 'playwright-core';
import { z } from 'zod';
import { startTestServer } from '../server/testing.ts';
import { launchBrowser, waitForSyncStatus, type BrowserSession } from '../tests/support/browser.ts';
import type { CpuProfile } from './cpu-profile.ts';
import { mirrorAsAdmin } from './phases.ts';
import { DATA_WORKER_NAME, installProbe, pageMark, waitForHook } from './app-probe.ts';

const argsSchema = z.object({
  transactions: z.coerce.number().int().min(100).max(1_000_000).default(100_000),
  runs: z.coerce.number().int().min(1).max(50).default(4),
  probe: z.coerce.number().int().min(0).max(50).default(2),
  out: z.string().min(1).default('/tmp/cold-profile'),
});

/** Evaluated in the data worker before its own script runs (it waits for the debugger). */
const WORKER_PROBE = `(() => {
  const log = [];
  self.__coldLog = log;
  const now = () => performance.timeOrigin + performance.now();
  log.push({ k: 'start', t: now() });
  const track = (proto, method, label, nameOf) => {
    const orig = proto[method];
    if (!orig) return;
    proto[method] = function (...args) {
      const rec = { k: label, t: now(), on: nameOf(this, args) };
      log.push(rec);
      const req = orig.apply(this, args);
      if (req && req.addEventListener) {
        let steps = 0;
        req.addEventListener('success', () => {
          if (rec.done === undefined) rec.done = now();
          else steps++;
          rec.last = now();
          rec.steps = steps;
        });
      }
      return req;
    };
  };
  track(IDBFactory.prototype, 'open', 'idb.open', (_, a) => String(a[0]));
  track(IDBFactory.prototype, 'deleteDatabase', 'idb.delete', (_, a) => String(a[0]));
  const storeName = (s) => (s.objectStore ? s.objectStore.name + '.' + s.name : s.name) + ' @' + (s.objectStore ? s.objectStore : s).transaction.db.name;
  for (const m of ['get', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor', 'getKey']) {
    track(IDBObjectStore.prototype, m, 'store.' + m, storeName);
    track(IDBIndex.prototype, m, 'index.' + m, storeName);
  }
  for (const m of ['put', 'add', 'delete', 'clear']) track(IDBObjectStore.prototype, m, 'store.' + m, storeName);
  self.addEventListener('message', (e) => {
    const d = e.data;
    if (d && typeof d === 'object' && 'type' in d) log.push({ k: 'in', t: now(), on: d.type + ' ' + JSON.stringify(d.path || []) + ' ' + String(d.id).slice(0, 12) });
  }, true);
  const post = self.postMessage;
  self.postMessage = function (m, ...rest) {
    log.push({ k: 'out', t: now(), on: String(m && m.id).slice(0, 12) });
    return post.call(this, m, ...rest);
  };
})()`;

/** Also in every page: when the data worker is created, on the wall clock. */
const PAGE_PROBE = `(() => {
  const Native = window.Worker;
  const log = (window.__coldPage = []);
  const now = () => performance.timeOrigin + performance.now();
  window.Worker = class extends Native {
    constructor(url, options) {
      log.push({ k: 'new Worker', t: now(), on: String(url) + ' ' + (options && options.name) });
      super(url, options);
    }
  };
  document.addEventListener('DOMContentLoaded', () => log.push({ k: 'DOMContentLoaded', t: now() }));
})()`;

/** A non-flattened auto-attach on the page: catches the data worker at its start. */
async function catchWorker(cdp: CDPSession, out: string) {
  let seq = 0;
  const replies = new Map<string, Map<number, (m: { result?: unknown; error?: unknown }) => void>>();
  const send = <T,>(sessionId: string, method: string, params: Record<string, unknown> = {}): Promise<T> => {
    const id = ++seq;
    const map = replies.get(sessionId) ?? new Map();
    replies.set(sessionId, map);
    const reply = new Promise<{ result?: unknown; error?: unknown }>((resolve) => map.set(id, resolve));
    void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    return reply.then((m) => {
      if (m.error) throw new Error(`${method}: ${JSON.stringify(m.error)}`);
      return m.result as T;
    });
  };
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined) replies.get(e.sessionId)?.get(msg.id)?.(msg);
  });
  let dataSession: string | null = null;
  const attached = new Promise<string>((resolve) => {
    cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; title: string; url: string }; waitingForDebugger: boolean }) => {
      void (async () => {
        // Only a worker caught at its start (the reloaded document's): the current one is attached too.
        if (e.targetInfo.type === 'worker' && e.targetInfo.title === DATA_WORKER_NAME && e.waitingForDebugger && !dataSession) {
          dataSession = e.sessionId;
          // Sent together (answered in order): the worker waits one round trip, not four.
          const ready = Promise.all([
            send(e.sessionId, 'Runtime.evaluate', { expression: WORKER_PROBE }),
            send(e.sessionId, 'Profiler.enable'),
            send(e.sessionId, 'Profiler.setSamplingInterval', { interval: 200 }),
            send(e.sessionId, 'Profiler.start'),
          ]);
          void ready.catch(() => undefined);
          resolve(e.sessionId);
        }
        if (e.waitingForDebugger) await send(e.sessionId, 'Runtime.runIfWaitingForDebugger').catch(() => undefined);
      })();
    });
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return {
    attached,
    async finish(): Promise<{ log: LogRec[]; resources: Resource[]; profile: CpuProfile; stoppedAt: number }> {
      const sessionId = await attached;
      const { result } = await send<{ result: { value: string } }>(sessionId, 'Runtime.evaluate', {
        expression: `JSON.stringify({ log: self.__coldLog, resources: performance.getEntriesByType('resource').map((r) => ({ name: r.name, start: performance.timeOrigin + r.startTime, end: performance.timeOrigin + r.responseEnd, size: r.decodedBodySize })) })`,
        returnByValue: true,
      });
      const stoppedAt = Date.now();
      const { profile } = await send<{ profile: CpuProfile }>(sessionId, 'Profiler.stop');
      await writeFile(`${out}.worker.cpuprofile`, JSON.stringify(profile));
      await cdp.send('Target.setAutoAttach', { autoAttach: false, waitForDebuggerOnStart: false, flatten: false }).catch(() => undefined);
      return { ...(JSON.parse(result.value) as { log: LogRec[]; resources: Resource[] }), profile, stoppedAt };
    },
  };
}

interface LogRec { k: string; t: number; on?: string; done?: number; last?: number; steps?: number }
interface Resource { name: string; start: number; end: number; size: number }

/** Self time per function in the first `untilMs` of a profile: the top `n`, and per script. */
function selfTimes(profile: CpuProfile, untilMs: number, n = 15) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]! / 1000;
    if (t > untilMs) break;
    const cf = byId.get(profile.samples[i]!)!;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const script = cf.url.split('/').pop() || cf.url || '(native)';
    const key = `${cf.functionName || '(anonymous)'} ${script}:${cf.lineNumber + 1}:${cf.columnNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + dt);
    file.set(script, (file.get(script) ?? 0) + dt);
  }
  let busy = 0;
  for (const [k, v] of fn) if (!k.startsWith('(idle)')) busy += v;
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(7)} ms  ${k}`);
  return { functions: top(fn), scripts: top(file), busy };
}

async function coldReload(b: BrowserSession, probeOut: string | null, log: (s: string) => void): Promise<number> {
  const { context, page } = b;
  let probe: Awaited<ReturnType<typeof catchWorker>> | null = null;
  let cdp: CDPSession | null = null;
  if (probeOut) {
    cdp = await context.newCDPSession(page);
    probe = await catchWorker(cdp, probeOut);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await context.setOffline(true);
  await page.reload({ waitUntil: 'commit' });
  const ms = await pageMark(page, 'first_row_painted', 60_000);
  if (probe && cdp) {
    const pageStoppedAt = Date.now();
    const pageProfile = (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile;
    await writeFile(`${probeOut}.page.cpuprofile`, JSON.stringify(pageProfile));
    const worker = await probe.finish();
    const pageSide = await page.evaluate(`({ origin: performance.timeOrigin, log: window.__coldPage, resources: performance.getEntriesByType('resource').map((r) => ({ name: r.name, start: performance.timeOrigin + r.startTime, end: performance.timeOrigin + r.responseEnd, size: r.decodedBodySize })) })`) as { origin: number; log: LogRec[]; resources: Resource[] };
    await writeFile(`${probeOut}.json`, JSON.stringify({ ms, pageSide, worker: { log: worker.log, resources: worker.resources } }, null, 1));
    report(ms, pageSide, worker, pageProfile, pageStoppedAt, log);
    await cdp.detach().catch(() => undefined);
  }
  await context.setOffline(false);
  await waitForHook(page);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  return ms;
}

/** The mirror's database names carry the business and user ids: `…--<version>--<collection>`. */
const shortDb = (on = '') => on.replace(/rxdb-dexie-ledgerline-[0-9a-f-]+?--(\d+)--/g, 'rx:$1:');

function report(ms: number, pageSide: { origin: number; log: LogRec[]; resources: Resource[] }, worker: { log: LogRec[]; resources: Resource[]; profile: CpuProfile; stoppedAt: number }, pageProfile: CpuProfile, pageStoppedAt: number, log: (s: string) => void) {
  const o = pageSide.origin;
  const at = (t: number) => `${(t - o).toFixed(1).padStart(7)}`;
  const firstRow = o + ms;
  const lines: string[] = [`first row at ${ms.toFixed(1)} ms after navigation`];
  const pageScripts = pageSide.resources.filter((x) => x.start < firstRow && /\.js$/.test(x.name));
  lines.push(`page scripts before the first row: ${pageScripts.length}, ${(pageScripts.reduce((a, r) => a + r.size, 0) / 1024).toFixed(1)} KiB decoded`);
  for (const r of pageScripts) lines.push(`  ${at(r.start)}  ${(r.size / 1024).toFixed(1).padStart(7)}  ${r.name.split('/').pop()}`);
  for (const r of pageSide.log) lines.push(`  ${at(r.t)}  page: ${r.k} ${(r.on ?? '').split('/').pop()}`);
  const early = worker.log.filter((r) => r.t < firstRow);
  // Milestones: the worker's first message (init) and the first page's query, each with its answer.
  const answered = (rec: LogRec | undefined) => {
    if (!rec) return 'none';
    const id = rec.on!.split(' ').pop();
    const out = worker.log.find((r) => r.k === 'out' && r.on === id && r.t >= rec.t);
    return `${at(rec.t)} → ${out ? at(out.t) : '(no answer)'}`;
  };
  const firstIn = early.find((r) => r.k === 'in');
  const init = early.find((r) => r.k === 'in' && r.on!.includes('"init"'));
  const firstQuery = early.find((r) => r.k === 'in' && r.on!.includes('"queryTransactions"'));
  lines.push(`milestones (ms after navigation): worker caught ${at(worker.log[0]!.t)}; first message in ${firstIn ? at(firstIn.t) : '-'}; init ${answered(init)}; first queryTransactions ${answered(firstQuery)}; first row ${at(firstRow)}`);
  const opens = early.filter((r) => r.k === 'idb.open');
  const reads = early.filter((r) => r.k.startsWith('store.') || r.k.startsWith('index.'));
  const beforeQuery = firstQuery ? reads.filter((r) => r.t < firstQuery.t) : reads;
  lines.push(`IndexedDB before the first row: ${opens.length} databases opened (${opens.filter((r) => /rxdb-dexie/.test(r.on ?? '') && !/_rxdb_internal/.test(r.on ?? '')).length} RxDB collections), ${reads.length} requests (${beforeQuery.length} before the first query arrived)`);
  lines.push('worker timeline until the first row (IndexedDB: issued → first answer / last cursor step [steps]; runs of the same request folded):');
  for (let i = 0; i < early.length; ) {
    const r = early[i]!;
    let j = i + 1;
    while (j < early.length && early[j]!.k === r.k && early[j]!.on === r.on && r.k !== 'in' && r.k !== 'out') j++;
    const run = early.slice(i, j);
    const lastDone = Math.max(...run.map((x) => x.last ?? x.done ?? 0));
    const done = lastDone ? ` → ${at(lastDone)}` : '';
    const steps = run.reduce((a, x) => a + (x.steps ?? 0), 0);
    lines.push(`  ${at(r.t)}${done}  ${run.length > 1 ? `${run.length}× ` : ''}${r.k} ${shortDb(r.on)}${steps ? ` [${steps} steps]` : ''}`);
    i = j;
  }
  // The profiles' clocks: their end is when Profiler.stop was called (this process's wall clock).
  const w = selfTimes(worker.profile, (worker.profile.endTime - worker.profile.startTime) / 1000 - (worker.stoppedAt - firstRow));
  const p = selfTimes(pageProfile, (pageProfile.endTime - pageProfile.startTime) / 1000 - (pageStoppedAt - firstRow));
  const workerEnd = (worker.profile.endTime - worker.profile.startTime) / 1000 - worker.stoppedAt;
  const busyUntil = (t: number | undefined) => (t === undefined ? '-' : selfTimes(worker.profile, workerEnd + t).busy.toFixed(1));
  lines.push(`worker busy (profiled, not idle) ms: until its first message ${busyUntil(firstIn?.t)}, until init answered ${busyUntil(worker.log.find((r) => r.k === 'out' && init && r.on === init.on!.split(' ').pop())?.t)}, until the first row ${w.busy.toFixed(1)}; page busy until the first row ${p.busy.toFixed(1)}`);
  lines.push('worker self time by script until the first row:', ...w.scripts.map((x) => `  ${x}`));
  lines.push('worker self time by function:', ...w.functions.map((x) => `  ${x}`));
  lines.push('page self time by script until the first row:', ...p.scripts.map((x) => `  ${x}`));
  lines.push('page self time by function:', ...p.functions.map((x) => `  ${x}`));
  log(lines.join('\n'));
}

async function main() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: { transactions: { type: 'string' }, runs: { type: 'string' }, probe: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const args = argsSchema.parse(values);
  const log = (s: string) => console.log(`[cold ${new Date().toISOString().slice(11, 19)}] ${s}`);
  await mkdir(args.out, { recursive: true });
  const n = args.transactions;
  log(`seeding ${n} transactions`);
  const server = await startTestServer({ transactions: n, reimbursements: Math.floor(n / 5), bills: Math.floor(n / 5), receipts: true, serveDist: true });
  let browser: BrowserSession | null = null;
  try {
    browser = await launchBrowser({ baseURL: server.url });
    await installProbe(browser.context);
    await browser.context.addInitScript({ content: PAGE_PROBE });
    const { page } = browser;
    log('first mirror');
    await mirrorAsAdmin(page);
    const times: number[] = [];
    for (let i = 0; i < args.runs; i++) {
      const probed = i >= args.runs - args.probe;
      const ms = await coldReload(browser, probed ? join(args.out, `run-${i + 1}`) : null, log);
      log(`cold start ${i + 1}${probed ? ' (probed)' : ''}: ${ms.toFixed(1)} ms`);
      times.push(ms);
      await page.evaluate('window.__ledgerlineBench.api.matchingIds({})');
    }
    console.log(JSON.stringify({ cold_start_ms: times.map((t) => Math.round(t * 10) / 10) }));
  } finally {
    await browser?.close();
    await server.close();
  }
}

await main();
