/**
 * One database interface over PGlite (embedded PostgreSQL in WASM, the default) and node-postgres
 * (a real PostgreSQL via DATABASE_URL). Everything in server/ talks to `Db`; nothing else in the
 * repo touches the database.
 *
 * Differences the two drivers have, smoothed over here:
 * - int8: `pg` returns strings, PGlite numbers (or bigint beyond 2^53). Both become `number` when
 *   safe, `bigint` otherwise, so `count(*)` and `change_seq` compare the same everywhere.
 * - timestamptz comes back as a `Date` from both; jsonb as parsed JSON from both.
 * - PGlite has a single connection: a transaction holds it exclusively, so code inside
 *   `transaction(fn)` must use the `tx` it is given, never the outer `Db` (that would deadlock).
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import pg from 'pg';

export type SqlParams = readonly unknown[];

/** What a statement can run on: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: SqlParams): Promise<T[]>;
  /** Runs one or more statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /** pg_notify: inside a transaction the notification is delivered only if it commits. */
  notify(channel: string, payload: string): Promise<void>;
}

export type Listener = (payload: string) => void;

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to a LISTEN channel; resolves to the unsubscribe function. */
  listen(channel: string, cb: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type OpenDbOptions = {
  databaseUrl?: string;
  dataDir?: string;
  /** PostgreSQL: connections for transactions (every write), 10 by default. */
  poolSize?: number;
  /** PostgreSQL: connections for statements outside a transaction (the reads), `poolSize` by default. */
  readPoolSize?: number;
  /**
   * PostgreSQL: open every connection of both pools now and keep them open (pool `min` = size).
   * For a server (main.ts): without it each pool opened connections on demand and closed them
   * after 10 s idle, and a request that met no idle connection waited for a new backend (its fork
   * and authentication: 50–800 ms on a loaded 2-core machine, ≈ 4 % of the reads at 4 processes,
   * the tail of the page's and search's p99; docs/performance.md "fourth session"). Tests leave it off.
   */
  warm?: boolean;
  /** PGlite only: start from this data-directory tarball (PGlite's dumpDataDir) instead of initdb. */
  loadDataDir?: Blob;
};

/** DATABASE_URL → PostgreSQL pool; otherwise PGlite in `dataDir` (or in memory when absent). */
export async function openDb(opts: OpenDbOptions = {}): Promise<Db> {
  if (opts.databaseUrl) return openPgDb(opts.databaseUrl, opts.poolSize, opts.readPoolSize, opts.warm === true);
  return openPgliteDb(opts.dataDir, opts.loadDataDir);
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;
function assertChannel(channel: string): void {
  // LISTEN takes an identifier, not a parameter, so the name is checked before interpolation.
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name: ${channel}`);
}

/** int8 → number when exactly representable, bigint otherwise (never silently rounded). */
export function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

// ---------------------------------------------------------------------------------------------
// PGlite

type PgliteLike = Pick<PGlite, 'query' | 'exec'>;

function pgliteQueryable(conn: PgliteLike): Queryable {
  return {
    async query<T>(sql: string, params?: SqlParams) {
      const res = await conn.query<T>(sql, params ? [...params] : undefined);
      // PGlite already yields number for int8 (bigint only beyond 2^53), matching parseInt8.
      return res.rows;
    },
    async exec(sql: string) {
      await conn.exec(sql);
    },
    async notify(channel: string, payload: string) {
      await conn.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
  };
}

/**
 * The extensions the migrations create (none now: a trigram index of search_text was measured and
 * left out, docs/performance.md). PGlite bundles each one's files apart and must be handed them at
 * every start, also on a data directory that has them installed already.
 */
export const PGLITE_EXTENSIONS = {} as const;

/** PGlite.create with our extensions: every PGlite the server or its tests open goes through it. */
export function createPglite(options: Omit<PGliteOptions, 'extensions'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, extensions: PGLITE_EXTENSIONS });
}

async function openPgliteDb(dataDir?: string, loadDataDir?: Blob): Promise<Db> {
  const lite = await createPglite({ ...(dataDir ? { dataDir } : {}), ...(loadDataDir ? { loadDataDir } : {}) });
  return pgliteDb(lite);
}

/** A Db over an open PGlite (closing the Db closes it). */
export function pgliteDb(lite: PGlite): Db {
  const base = pgliteQueryable(lite);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn) => lite.transaction((tx) => fn(pgliteQueryable(tx))),
    async listen(channel, cb) {
      assertChannel(channel);
      const off = await lite.listen(channel, cb);
      return async () => {
        if (!lite.closed) await off();
      };
    },
    close: () => (lite.closed ? Promise.resolve() : lite.close()),
  };
}

// ---------------------------------------------------------------------------------------------
// node-postgres

const INT8_OID = 20;

/** Per-pool type parsers, so we never mutate pg's process-wide defaults. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return parseInt8;
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  },
} as pg.CustomTypesConfig;

function pgQueryable(conn: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params?: SqlParams) {
      const res = await conn.query(sql, params ? [...params] : undefined);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await conn.query(sql);
    },
    async notify(channel: string, payload: string) {
      await conn.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
  };
}

async function openPgDb(databaseUrl: string, poolSize = 10, readPoolSize = poolSize, warm = false): Promise<Db> {
  // JIT off for every connection (issue 33): the feed page's UNION of ~27 branches, and other
  // statements built of many subplans, pass PostgreSQL's JIT cost thresholds although they run in
  // milliseconds; compiling them took 4–38 s a page on this machine (docs/performance.md). An
  // OLTP API whose reads are keyset pages by index has nothing to gain from JIT. PGlite has none.
  const common = { connectionString: databaseUrl, types: pgTypes, options: '-c jit=off' };
  // Two budgets (issue 33): a transaction keeps its connection to commit, also while it queues for
  // its business row's lock behind the other writers of the business (change-seq.ts), so with one
  // pool the reads queued for connections those writers held. Statements outside a transaction
  // (every GET, the searches, audit and device rows) have their own pool and never wait for a
  // writer's connection; writers beyond `poolSize` wait in this process, holding none.
  // Connections open on demand (pg.Pool), so an idle budget costs nothing.
  const pool = new pg.Pool({ ...common, max: readPoolSize, min: warm ? readPoolSize : 0, application_name: 'ledgerline' });
  const txPool = new pg.Pool({ ...common, max: poolSize, min: warm ? poolSize : 0, application_name: 'ledgerline-tx' });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  txPool.on('error', () => {});
  await (warm ? Promise.all([openAll(pool, readPoolSize), openAll(txPool, poolSize)]) : pool.query('SELECT 1'));
  const notifier = new PgNotifier(databaseUrl);
  return {
    kind: 'pg',
    ...pgQueryable(pool),
    async transaction(fn) {
      const client = await txPool.connect();
      // A connection lost mid-transaction (server restart, terminated backend) fails the running
      // query; its 'error' event must not crash the process, and the dead client must not go
      // back to the pool (release(err) destroys it).
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(pgQueryable(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        if (!broken) await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    listen: (channel, cb) => notifier.listen(channel, cb),
    async close() {
      await notifier.close();
      await Promise.all([pool.end(), txPool.end()]);
    },
  };
}

/** Opens `n` connections of `pool` at once and hands them back idle (kept: the pool's `min` is n). */
async function openAll(pool: pg.Pool, n: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  for (const o of opened) if (o.status === 'fulfilled') o.value.release();
  const failed = opened.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * One dedicated connection per process carries every LISTEN (a pooled client would be handed to
 * other queries). If the connection drops it reconnects with backoff and re-issues the LISTENs;
 * notifications sent while it was down are lost, which is why stream clients also pull on
 * reconnect rather than trusting announcements alone.
 */
class PgNotifier {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private closed = false;
  private retryMs = 250;

  constructor(private readonly databaseUrl: string) {}

  async listen(channel: string, cb: Listener): Promise<() => Promise<void>> {
    assertChannel(channel);
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      const client = await this.connect();
      await client.query(`LISTEN ${channel}`);
    }
    set.add(cb);
    return async () => {
      const current = this.listeners.get(channel);
      if (!current) return;
      current.delete(cb);
      if (current.size > 0) return;
      this.listeners.delete(channel);
      if (this.client && !this.closed) await this.client.query(`UNLISTEN ${channel}`).catch(() => {});
    };
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (msg) => {
      for (const cb of this.listeners.get(msg.channel) ?? []) cb(msg.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    this.client = client;
    this.retryMs = 250;
    return client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.closed || this.listeners.size === 0) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    setTimeout(() => void this.relisten(), delay).unref();
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      const client = await this.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch {
      if (this.client) this.lost(this.client);
      else setTimeout(() => void this.relisten(), this.retryMs).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => {});
  }
}
