/**
 * Issue 33: the API under concurrent clients with 1, 2, 4 … server processes on one PostgreSQL.
 *
 *   npm run bench:load -- --processes 1,2,4 --clients 30 --seconds 60 [--transactions 20000]
 *     [--warmup 5] [--database-url postgres://…/admin-db] [--keep] [--json out.json]
 *     [--cpu-prof-dir dir] (each server process writes a V8 CPU profile there at exit)
 *     [--reuse postgres://…/ledgerline_t_x] (a database a --keep run left: no seeding, not dropped)
 *     [--probe-dir dir] (bench/load-probe.ts in every server process: pool waits, the write lock's phases)
 *     [--activity] (samples pg_stat_activity during the measured window: what the connections wait on)
 *
 * Seeds a fresh database (named ledgerline_t_*, on the PostgreSQL at --database-url, else
 * PG_TEST_URL, else postgres://postgres@127.0.0.1:5432/postgres) once with the demo business
 * (server/seed, no receipt files), then for each process count starts the real server
 * (`node --import tsx server/main.ts` with DATABASE_URL and WEB_CONCURRENCY; the supervisor of
 * server/cluster.ts), waits until every worker listens, drives the clients of bench/load-clients.ts
 * from a worker thread as the seeded owner, and stops the server with SIGTERM (it must drain).
 * Reports req/s, p50 and p99 per call and per process count, the load average before and after
 * (this machine is shared; say so beside any figure), and the server processes' CPU time per request
 * over the measured window (user + system from /proc, the server's process and its cluster workers):
 * unlike wall-clock latency, that figure hardly moves with the machine's load. The database is dropped at the end unless --keep.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ID_TOKEN_HEADER } from '../schema/api/scopes.ts';
import { openDb } from '../server/db/db.ts';
import { prepareDatabase } from '../server/startup.ts';
import { createPgDatabase } from '../server/testing.ts';
import { DEFAULT_EMAIL_DOMAIN, DEMO_PASSWORD } from '../server/seed/types.ts';
import { sampleActivity, summarizeProbes, type ActivityRow, type ProbeSummary } from './load-activity.ts';
import { LOAD_CLIENT_SCRIPT, LOAD_OPS, LOAD_WEIGHTS, type LoadOp, type LoadWorkerData, type LoadWorkerResult } from './load-clients.ts';
import { percentile, roundMs } from './stats.ts';

const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const SEARCH_TERMS = ['uber', 'delta', 'amazon', 'coffee', 'hotel', 'office', 'air', 'lyft', 'market', 'cloud'];

type Args = { processes: number[]; clients: number; seconds: number; warmup: number; transactions: number; adminUrl: string; keep: boolean; json: string | null; cpuProfDir: string | null; reuse: string | null; probeDir: string | null; activity: boolean };

function parseArgs(argv: string[]): Args {
  const get = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
  const num = (name: string, fallback: number) => { const v = get(name); const n = v === undefined ? fallback : Number(v); if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number`); return n; };
  return {
    processes: (get('processes') ?? '1,2,4').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0),
    clients: num('clients', 30),
    seconds: num('seconds', 60),
    warmup: num('warmup', 5),
    transactions: num('transactions', 20_000),
    adminUrl: get('database-url') ?? process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    keep: argv.includes('--keep'),
    json: get('json') ?? null,
    cpuProfDir: get('cpu-prof-dir') ?? null,
    reuse: get('reuse') ?? null,
    probeDir: get('probe-dir') ?? null,
    activity: argv.includes('--activity'),
  };
}

export type OpFigures = { requests: number; rps: number; p50Ms: number; p99Ms: number; errors: number };
export type RunFigures = {
  processes: number; clients: number; seconds: number; rps: number; ops: Record<LoadOp, OpFigures>;
  loadBefore: string; loadAfter: string; firstErrors: string[];
  /** Server CPU (user + system, every server process) per request of the measured window. */
  serverCpuMsPerRequest: number;
  activity?: ActivityRow[];
  probes?: ProbeSummary;
};

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU ms of a process and its children still running (Linux /proc; 0 elsewhere). */
async function cpuMsOfTree(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return 0;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const children = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of children.split(' ').filter(Boolean)) ms += await cpuMsOfTree(Number(child));
  }
  return ms;
}

/** Starts `node --import tsx server/main.ts` with WEB_CONCURRENCY=processes; resolves once every worker listens. */
async function startServer(databaseUrl: string, processes: number, port: number, cpuProfDir: string | null, probeDir: string | null): Promise<{ child: ChildProcess; url: string; log: string[] }> {
  const log: string[] = [];
  const probe = probeDir ? ['--import', './bench/load-probe.ts'] : [];
  const child = spawn(process.execPath, [...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []), '--import', 'tsx', ...probe, 'server/main.ts'], {
    env: { ...process.env, ...(probeDir ? { LOAD_PROBE_DIR: probeDir } : {}), DATABASE_URL: databaseUrl, WEB_CONCURRENCY: String(processes), PORT: String(port), HOST: '127.0.0.1', LEDGERLINE_SEED_DEMO: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: on a loaded 2-core machine N workers each compile the server through tsx.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 300 s:\n${log.slice(-20).join('\n')}`));
    }, 300_000);
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line) log.push(line);
        const m = /Ledgerline is running at (\S+)/.exec(line);
        if (m) { clearTimeout(timer); resolve(m[1]!); }
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${log.slice(-20).join('\n')}`)); });
  });
  return { child, url, log };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 40_000))]);
  if (code === 'timeout') {
    child.kill('SIGKILL');
    throw new Error('the server did not drain within 40 s of SIGTERM');
  }
}

async function signInOwner(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/public/sign-in`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `owner@${DEFAULT_EMAIL_DOMAIN}`, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`owner sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id_token: string }).id_token;
}

function runClients(data: LoadWorkerData): Promise<LoadWorkerResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_CLIENT_SCRIPT, { eval: true, workerData: data });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`load worker exited with ${code}`)));
  });
}

function figures(out: LoadWorkerResult): { rps: number; ops: Record<LoadOp, OpFigures> } {
  const ops = {} as Record<LoadOp, OpFigures>;
  let total = 0;
  for (const op of LOAD_OPS) {
    const l = out.latencies[op];
    total += l.length;
    ops[op] = { requests: l.length, rps: Math.round((l.length / out.seconds) * 10) / 10, p50Ms: roundMs(percentile(l, 50)), p99Ms: roundMs(percentile(l, 99)), errors: out.errors[op] };
  }
  return { rps: Math.round((total / out.seconds) * 10) / 10, ops };
}

function printRun(r: RunFigures): void {
  console.log(`\n${r.processes} process(es), ${r.clients} clients, ${r.seconds} s: ${r.rps} req/s, server CPU ${r.serverCpuMsPerRequest} ms per request (load average before ${r.loadBefore}, after ${r.loadAfter})`);
  console.log('| call | requests | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const op of LOAD_OPS) {
    const o = r.ops[op];
    console.log(`| ${op} | ${o.requests} | ${o.rps} | ${o.p50Ms} | ${o.p99Ms} | ${o.errors} |`);
  }
  for (const e of r.firstErrors) console.log(`  error: ${e}`);
  if (r.activity) {
    console.log('pg_stat_activity, backends per sample (state | wait | statement):');
    for (const a of r.activity.slice(0, 12)) console.log(`  ${a.perSample.toFixed(2)}  ${a.state} | ${a.wait} | ${a.statement}`);
  }
  if (r.probes) {
    for (const p of r.probes.pools) console.log(`pool ${p.pool}: ${p.checkouts} checkouts, wait p50/p99 ${p.waitP50Ms}/${p.waitP99Ms} ms, waiting mean ${p.waitingMean} max ${p.waitingMax}; ${p.opened} opened a connection (wait p50 ${p.openWaitP50Ms} ms), ${p.openedServing} of them while the clients ran`);
    const l = r.probes.locked;
    for (const h of r.probes.heldStatements.slice(0, 10)) console.log(`  under the lock: ${h.count} × ${h.statement} (p50 ${h.p50Ms} ms, mean ${h.meanMs} ms)`);
    if (l) console.log(`seq-reserving transactions: ${l.count}; before the lock p50 ${l.beforeP50Ms} ms, lock wait p50/p99 ${l.lockWaitP50Ms}/${l.lockWaitP99Ms} ms, held p50/p99 ${l.holdP50Ms}/${l.holdP99Ms} ms (statements ${l.holdStatementP50Ms}, between them ${l.holdGapP50Ms}), statements under the lock p50 ${l.statementsHeldP50}`);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  console.log(args.reuse ? `Reusing ${args.reuse} (migrated, not seeded again)...` : `Seeding a fresh database with ${args.transactions} transactions (not timed)...`);
  const store = args.reuse ? null : await createPgDatabase(args.adminUrl);
  const results: RunFigures[] = [];
  try {
    const databaseUrl = args.reuse ?? store!.open.databaseUrl!;
    const db = await openDb({ databaseUrl });
    const t0 = performance.now();
    // On a reused database this only applies the migrations it lacks (the seed runs on an empty one).
    await prepareDatabase(db, { SEED_TRANSACTIONS: String(args.transactions), LEDGERLINE_SUPPORT_PASSWORD: randomBytes(12).toString('base64url') }, () => undefined, { receipts: false });
    console.log(`${args.reuse ? 'Migrated' : 'Seeded'} in ${Math.round((performance.now() - t0) / 1000)} s; ANALYZE...`);
    await db.exec('ANALYZE');
    const ids = (await db.query<{ id: string }>(`SELECT id::text FROM transactions ORDER BY md5(id::text) LIMIT 500`)).map((r) => r.id);
    const gls = (await db.query<{ id: string }>(`SELECT id::text FROM gl_accounts WHERE active AND classification = 'EXPENSE' LIMIT 20`)).map((r) => r.id);
    await db.close();
    for (const [i, processes] of args.processes.entries()) {
      const probeDir = args.probeDir ? join(args.probeDir, `p${processes}-${Date.now()}`) : null;
      if (probeDir) await mkdir(probeDir, { recursive: true });
      const server = await startServer(databaseUrl, processes, 18_700 + i, args.cpuProfDir, probeDir);
      let run: RunFigures | null = null;
      let servingSince = 0;
      try {
        const token = await signInOwner(server.url);
        const top = await fetch(`${server.url}/v1/auth/sync/changes?backfill=true&limit=1`, { headers: { [ID_TOKEN_HEADER]: token } });
        const checkpoint = ((await top.json()) as { checkpoint: number }).checkpoint;
        const loadBefore = load();
        servingSince = Date.now();
        console.log(`${processes} process(es): ${args.clients} clients for ${args.warmup} s warm-up + ${args.seconds} s (load ${loadBefore})`);
        // The warm-up's CPU is not counted: sampled once it ends, and again when the clients stop.
        let cpuAtWarm = 0;
        let stopActivity: Awaited<ReturnType<typeof sampleActivity>> | null = null;
        const warmTimer = setTimeout(() => {
          void cpuMsOfTree(server.child.pid!).then((ms) => { cpuAtWarm = ms; });
          if (args.activity) void sampleActivity(databaseUrl).then((stop) => { stopActivity = stop; });
        }, args.warmup * 1000);
        const out = await runClients({
          url: server.url, header: ID_TOKEN_HEADER, token, acceptEncoding: ACCEPT_ENCODING, clients: args.clients,
          durationMs: (args.warmup + args.seconds) * 1000, warmupMs: args.warmup * 1000, transactionIds: ids, glAccountIds: gls,
          searchTerms: SEARCH_TERMS, checkpoint, weights: LOAD_WEIGHTS,
        });
        clearTimeout(warmTimer);
        const activity = stopActivity ? (await (stopActivity as () => Promise<{ rows: ActivityRow[] }>)()).rows : undefined;
        const cpuMs = (await cpuMsOfTree(server.child.pid!)) - cpuAtWarm;
        const counted = LOAD_OPS.reduce((n, op) => n + out.latencies[op].length + out.errors[op], 0);
        run = {
          processes, clients: args.clients, seconds: Math.round(out.seconds), ...figures(out), loadBefore, loadAfter: load(), firstErrors: out.firstErrors,
          serverCpuMsPerRequest: counted ? Math.round((cpuMs / counted) * 100) / 100 : 0,
          ...(activity ? { activity } : {}),
        };
      } finally {
        await stopServer(server.child);
      }
      // The probes are written as the server processes exit.
      if (probeDir) run.probes = await summarizeProbes(probeDir, servingSince);
      printRun(run);
      results.push(run);
    }
  } finally {
    if (store && args.keep) console.log(`Kept the database: ${store.open.databaseUrl}`);
    else if (store) await store.dispose();
  }
  if (args.json) await writeFile(args.json, JSON.stringify({ at: new Date().toISOString(), args: { ...args, adminUrl: undefined }, results }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
