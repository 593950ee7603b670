/**
 * Issue 33: several API processes on one PostgreSQL (`WEB_CONCURRENCY=N`, node:cluster).
 *
 * The primary process migrates and seeds once (startup.ts), then forks N workers that share the
 * listening port (node:cluster hands accepted connections round-robin to the workers). Each worker
 * is a whole server process: the API, the SSE streams (fed by LISTEN/NOTIFY, so a write through
 * one process reaches a stream open on another) and the periodic jobs, each of which is safe to
 * run in several processes at once (row locks, leased rows, unique claims: see server/CONTEXT.md
 * "Several processes"). The primary serves nothing itself: it replaces a worker that dies (at most
 * RESTART_BUDGET.max restarts per RESTART_BUDGET.windowMs; more wait for the window) and, on
 * SIGTERM / SIGINT, asks every worker to drain (its own SIGTERM handler: stop the jobs, close the
 * server, close the pool) and exits once all have, killing any still alive after DRAIN_MS.
 *
 * PGlite (no DATABASE_URL) is one process's database directory: WEB_CONCURRENCY > 1 is refused
 * with a message rather than silently running one process.
 */
import cluster, { type Worker } from 'node:cluster';
import { envInt } from './startup.ts';

export const RESTART_BUDGET = { max: 5, windowMs: 60_000 };
/** How long a draining worker may take before the primary kills it. */
export const DRAIN_MS = 30_000;

/** WEB_CONCURRENCY (default 1, at least 1); more than 1 needs DATABASE_URL. */
export function webConcurrency(env: Record<string, string | undefined>): number {
  const n = envInt(env, 'WEB_CONCURRENCY', 1);
  if (n < 1) throw new Error('WEB_CONCURRENCY must be at least 1');
  if (n > 1 && !env.DATABASE_URL) {
    throw new Error(
      `WEB_CONCURRENCY=${n} needs DATABASE_URL (PostgreSQL): the default PGlite database is a directory one process ` +
      'owns, so several processes cannot share it. Set DATABASE_URL, or leave WEB_CONCURRENCY unset (one process).',
    );
  }
  return n;
}

/**
 * Connections per server process (issue 33): the budgets are for the whole server, shared by its
 * processes, so N processes do not open N times as many backends on the same cores (4 processes
 * held 4 × (10 + 10) connections, most idle, against PostgreSQL's default max_connections of 100,
 * shared with every other client). Reads: 10 in all, at least 4 a process; transactions: 10 in
 * all, at least 3 a process (writers of one business run one at a time on its row lock anyway).
 * LEDGERLINE_DB_READ_POOL and LEDGERLINE_DB_TX_POOL set a process's sizes outright.
 */
export const POOL_BUDGET = { read: { total: 10, least: 4 }, tx: { total: 10, least: 3 } };

export function poolSizes(env: Record<string, string | undefined>, processes: number): { readPoolSize: number; poolSize: number } {
  const share = (b: { total: number; least: number }) => Math.max(b.least, Math.ceil(b.total / processes));
  const size = (name: string, fallback: number) => {
    const n = envInt(env, name, fallback);
    if (n < 1) throw new Error(`${name} must be at least 1`);
    return n;
  };
  return { readPoolSize: size('LEDGERLINE_DB_READ_POOL', share(POOL_BUDGET.read)), poolSize: size('LEDGERLINE_DB_TX_POOL', share(POOL_BUDGET.tx)) };
}

/**
 * Restarts allowed in a sliding window: `delayMs(now)` is 0 while fewer than `max` restarts
 * happened in the last `windowMs`, else the wait until the oldest of them leaves the window.
 */
export class RestartBudget {
  private readonly times: number[] = [];
  constructor(private readonly max: number, private readonly windowMs: number) {}

  delayMs(now: number): number {
    while (this.times.length > 0 && now - this.times[0]! >= this.windowMs) this.times.shift();
    return this.times.length < this.max ? 0 : this.times[0]! + this.windowMs - now;
  }

  note(now: number): void {
    this.times.push(now);
  }
}

export interface WorkerMessage { type: 'ledgerline-ready'; url: string }

const isReady = (m: unknown): m is WorkerMessage =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'ledgerline-ready';

export interface Supervisor {
  /** Resolves with the URL once the first `count` workers listen. */
  ready: Promise<string>;
  /** Drain every worker (SIGTERM), kill what is left after DRAIN_MS; resolves when all exited. */
  stop(): Promise<void>;
}

/** The primary: forks `count` workers, replaces the ones that die, drains them on stop. */
export function superviseWorkers(opts: {
  count: number;
  log: (line: string) => void;
  now?: () => number;
  budget?: RestartBudget;
  drainMs?: number;
}): Supervisor {
  const now = opts.now ?? Date.now;
  const budget = opts.budget ?? new RestartBudget(RESTART_BUDGET.max, RESTART_BUDGET.windowMs);
  const live = new Set<Worker>();
  let stopping = false;
  let pending = 0;
  let listening = 0;
  let announce: (url: string) => void = () => {};
  const ready = new Promise<string>((resolve) => { announce = (url) => { if (++listening === opts.count) resolve(url); }; });

  const fork = () => {
    const worker = cluster.fork({ LEDGERLINE_CLUSTER_WORKER: '1' });
    live.add(worker);
    worker.on('message', (m: unknown) => { if (isReady(m)) announce(m.url); });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      const delay = budget.delayMs(now());
      opts.log(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); ` +
        (delay === 0 ? 'starting another.' : `too many restarts, starting another in ${Math.ceil(delay / 1000)} s.`));
      pending++;
      setTimeout(() => {
        pending--;
        if (stopping) return;
        budget.note(now());
        fork();
      }, delay).unref();
    });
  };
  for (let i = 0; i < opts.count; i++) fork();

  let stopped: Promise<void> | null = null;
  const stop = () => stopped ??= new Promise<void>((resolve) => {
    stopping = true;
    if (pending > 0) opts.log(`${pending} pending restart(s) dropped.`);
    if (live.size === 0) return resolve();
    const kill = setTimeout(() => {
      for (const w of live) {
        opts.log(`Worker ${w.process.pid} did not drain within ${(opts.drainMs ?? DRAIN_MS) / 1000} s: killed.`);
        w.process.kill('SIGKILL');
      }
    }, opts.drainMs ?? DRAIN_MS);
    kill.unref();
    for (const w of live) {
      w.on('exit', () => {
        if (live.size > 0) return;
        clearTimeout(kill);
        resolve();
      });
      w.process.kill('SIGTERM');
    }
  });
  return { ready, stop };
}

/** In a worker: tell the primary this process listens (the primary prints the address once). */
export function announceReady(url: string): void {
  if (cluster.isWorker && process.send) process.send({ type: 'ledgerline-ready', url } satisfies WorkerMessage);
}
