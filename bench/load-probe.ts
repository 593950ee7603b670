/**
 * Issue 33: what a server process under bench/load-test.ts spends its connections on. Loaded into
 * the server with `--import` (load-test.ts `--probe-dir dir`, which also sets LOAD_PROBE_DIR), it
 * wraps node-postgres without touching server code:
 * - pool checkouts: how long each `connect` waited for a connection, per pool of the process (the
 *   queue a request meets before its first statement), and the pools' waiting count, sampled; the
 *   checkouts that found no idle connection and opened a new one (a backend's fork and
 *   authentication) are also kept apart (`openWaits`);
 * - transactions: for each BEGIN … COMMIT/ROLLBACK on one connection that reserves seqs (`UPDATE
 *   businesses SET change_seq`), the phases: before the lock, waiting for it (the UPDATE's own
 *   time), and holding it to the end of COMMIT, split into the time statements ran and the time
 *   between them (the process's own work and event-loop queueing while the lock is held), with
 *   the number of statements under the lock.
 * At exit each process writes probe-<pid>.json into LOAD_PROBE_DIR; `summarizeProbes` joins them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export type ProbeFile = {
  pid: number;
  /** Per pool (named by its application_name, else its size): checkout waits in ms. */
  connectWaits: Record<string, number[]>;
  /** Per pool: the checkouts that opened a new connection: when (epoch ms) and their wait. */
  openWaits: Record<string, { at: number; ms: number }[]>;
  /** Per pool: the waiting count, sampled every SAMPLE_MS. */
  waitingSamples: Record<string, number[]>;
  locked: { beforeMs: number; lockWaitMs: number; holdMs: number; holdStatementMs: number; holdGapMs: number; statementsHeld: number }[];
  /** Under the lock: each statement's time, by its first 40 characters. */
  heldStatements: Record<string, number[]>;
};

const SAMPLE_MS = 20;
const dir = process.env.LOAD_PROBE_DIR;

type Trace = { begin: number; events: { sql: string; start: number; end: number }[] };

if (dir) {
  const pools = new Map<pg.Pool, string>();
  const file: ProbeFile = { pid: process.pid, connectWaits: {}, openWaits: {}, waitingSamples: {}, locked: [], heldStatements: {} };
  const poolName = (pool: pg.Pool) => {
    let name = pools.get(pool);
    if (name === undefined) {
      const options = (pool as unknown as { options: { application_name?: string; max?: number } }).options;
      name = options.application_name ?? `pool of ${options.max}`;
      pools.set(pool, name);
      file.connectWaits[name] ??= [];
      file.openWaits[name] ??= [];
      file.waitingSamples[name] ??= [];
    }
    return name;
  };

  const connect = pg.Pool.prototype.connect as (this: pg.Pool, cb?: (...args: unknown[]) => void) => unknown;
  pg.Pool.prototype.connect = function (this: pg.Pool, cb?: (...args: unknown[]) => void) {
    const name = poolName(this);
    const max = (this as unknown as { options: { max: number } }).options.max;
    // No idle connection and room for one more: this checkout opens a new connection.
    const opens = this.idleCount === 0 && this.totalCount < max;
    const t0 = performance.now();
    const note = () => {
      const ms = performance.now() - t0;
      file.connectWaits[name]!.push(ms);
      if (opens) file.openWaits[name]!.push({ at: Date.now(), ms });
    };
    if (typeof cb === 'function') {
      return connect.call(this, (...args: unknown[]) => {
        note();
        cb(...args);
      });
    }
    const p = connect.call(this) as Promise<pg.PoolClient>;
    return p.then((client) => {
      note();
      return client;
    });
  } as typeof pg.Pool.prototype.connect;

  setInterval(() => {
    for (const [pool, name] of pools) file.waitingSamples[name]!.push(pool.waitingCount);
  }, SAMPLE_MS).unref();

  const traces = new WeakMap<object, Trace>();
  const finish = (trace: Trace) => {
    const lock = trace.events.findIndex((e) => e.sql.startsWith('UPDATE businesses SET change_seq'));
    if (lock < 0) return;
    const held = trace.events.slice(lock + 1);
    const locked = trace.events[lock]!;
    const end = trace.events.at(-1)!.end;
    const statementMs = held.reduce((s, e) => s + (e.end - e.start), 0);
    for (const e of held) (file.heldStatements[e.sql.slice(0, 40)] ??= []).push(e.end - e.start);
    file.locked.push({
      beforeMs: locked.start - trace.begin, lockWaitMs: locked.end - locked.start, holdMs: end - locked.end,
      holdStatementMs: statementMs, holdGapMs: end - locked.end - statementMs, statementsHeld: held.length,
    });
  };
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | null)?.text ?? '');
    const sql = text.trimStart().replace(/\s+/g, ' ').slice(0, 60);
    const start = performance.now();
    if (sql === 'BEGIN') traces.set(this, { begin: start, events: [] });
    const trace = traces.get(this);
    if (!trace) return query.apply(this, args);
    const event = { sql, start, end: start };
    trace.events.push(event);
    const done = () => {
      event.end = performance.now();
      if (sql === 'COMMIT' || sql === 'ROLLBACK') {
        traces.delete(this);
        finish(trace);
      }
    };
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...cbArgs: unknown[]) => {
        done();
        (last as (...a: unknown[]) => void)(...cbArgs);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;

  process.on('exit', () => {
    writeFileSync(join(dir, `probe-${process.pid}.json`), JSON.stringify(file));
  });
}
