/**
 * A real server for integration, end-to-end and benchmark code: fresh database, migrated and
 * seeded with the demo business, listening on 127.0.0.1 on a free port.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { LedgerlineApp } from './app.ts';
import { createPglite, openDb, pgliteDb, type Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo, startOfUtcDay } from './seed/seed.ts';
import { hashPassword } from './auth/password.ts';
import { listen } from './serve.ts';
import { pgliteTemplate, pgTemplateDatabase } from './test-templates.ts';
import type { SsoOptions } from './auth/sso/settings.ts';
import type { QuotaSettings } from './core/deps.ts';

export const DEFAULT_PG_ADMIN_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

export type TestServerOptions = {
  /** Demo transactions to seed (default 200). */
  transactions?: number;
  /** Generated reimbursements besides the hand-made demo claims (default 0: tests count those). */
  reimbursements?: number;
  /** Generated bills and their suppliers (server/seed/bills.ts; default 0). */
  bills?: number;
  /** Seed receipts for ≈65 % of the card transactions older than a week (default false). */
  receipts?: boolean;
  /** A PostgreSQL server (admin database URL): a fresh database is created there and dropped on close. */
  databaseUrl?: string;
  /** Use this PGlite directory (kept on close); default a temp directory removed on close. */
  dataDir?: string;
  /** Serve the built PWA from dist/. */
  serveDist?: boolean;
  /** Switch the development mailbox on (tests that read mailed codes and links). */
  devOutbox?: boolean;
  /** Single sign-on: Google's client (its issuer may be a test IdP), the public URL. Loopback http IdPs are always allowed here. */
  sso?: Omit<SsoOptions, 'allowLoopbackHttp'>;
  /** Quotas smaller than the defaults (server/auth/quotas.ts), to meet one in a test. */
  quotas?: Partial<QuotaSettings>;
  /**
   * PGlite in a temp directory only: start from a copy of a database this process already seeded
   * with the same seed options today, instead of seeding again (see `seededCopies`). Default:
   * LEDGERLINE_TEST_REUSE_SEED=1 (vitest.config.ts sets it for the e2e project); benchmarks leave
   * it off, so what they measure starts from a freshly seeded database as before.
   */
  reuseSeed?: boolean;
};
export type TestServer = { url: string; app: LedgerlineApp; db: Db; businessId: string; close(): Promise<void> };

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  // A fresh database starts as a copy of the migrated template (server/test-templates.ts), or of
  // this process's seeded copy (below); a given dataDir is opened as it is. migrate() below then
  // applies whatever is missing.
  const store = opts.databaseUrl
    ? await createPgDatabase(opts.databaseUrl, { template: await pgTemplateDatabase(opts.databaseUrl) })
    : await pgliteDir(opts.dataDir);
  const seedOptions = {
    transactions: opts.transactions ?? 200,
    reimbursements: opts.reimbursements ?? 0,
    bills: opts.bills ?? 0,
    receipts: opts.receipts ?? false,
  };
  const reuse = !opts.databaseUrl && !opts.dataDir && (opts.reuseSeed ?? process.env.LEDGERLINE_TEST_REUSE_SEED === '1');
  const key = JSON.stringify({ ...seedOptions, day: startOfUtcDay(new Date()).toISOString() });
  const copy = reuse ? await seededCopies.get(key)?.catch(() => undefined) : undefined;
  let db: Db | null = null;
  try {
    let lite: PGlite | null = null;
    if (opts.databaseUrl || opts.dataDir) db = await openDb(store.open);
    else {
      lite = await createPglite({ dataDir: store.open.dataDir, loadDataDir: copy?.dump ?? (await pgliteTemplate('migrated')) });
      db = pgliteDb(lite);
    }
    await migrate(db);
    let businessId = copy?.businessId;
    if (!businessId) {
      // Test servers hash the demo passwords with cheap scrypt parameters: ~40 full-cost hashes
      // dominated start-up (≈20 s on this machine). verifyPassword reads the parameters from the
      // stored hash, so sign-in works the same; production seeding (main.ts) keeps full cost.
      ({ businessId } = await seedDemo(db, { ...seedOptions, hashPassword: (pw) => hashPassword(pw, TEST_SCRYPT) }));
      if (reuse && lite) keepSeededCopy(key, lite, businessId);
    }
    const server = await listen({
      db, host: '127.0.0.1', port: 0, devOutbox: opts.devOutbox ?? false, ...(opts.serveDist ? { distDir: DIST_DIR } : {}),
      sso: { google: null, ...opts.sso, allowLoopbackHttp: true },
      ...(opts.quotas ? { quotas: opts.quotas } : {}),
    });
    const openDbHandle = db;
    let closing: Promise<void> | null = null;
    return {
      url: server.url,
      app: server.app,
      db: openDbHandle,
      businessId,
      close() {
        // Idempotent: tests close in `finally` blocks that may run after an explicit close.
        closing ??= (async () => {
          await server.close();
          await openDbHandle.close();
          await store.dispose();
        })();
        return closing;
      },
    };
  } catch (err) {
    await db?.close().catch(() => {});
    await store.dispose().catch(() => {});
    throw err;
  }
}

/**
 * Seeded databases this process made, by seed options and UTC day (the seed is deterministic for
 * a given day: server/seed/seed.ts), as PGlite data-directory tarballs. Seeding costs ~1.5-4 s of
 * CPU (more than loading a tarball); the e2e files, one process running them one after another
 * (vitest.config.ts: no isolation), mostly ask for the same few seeds. A copy holds what the seed
 * wrote, taken before the server starts; only the password hashes' salts are shared.
 */
const seededCopies = new Map<string, Promise<{ dump: Blob; businessId: string }>>();
/** The copies kept stay under this many bytes (a 200-transaction demo is ≈ 55 MB); the oldest go first. */
const SEEDED_COPIES_MAX_BYTES = 400 * 1024 * 1024;

/**
 * Queues the dump on the database before anything else reaches it (PGlite runs one operation at a
 * time, in order), so the copy is the seed's state even though the server starts meanwhile.
 */
function keepSeededCopy(key: string, lite: PGlite, businessId: string): void {
  const copy = lite.dumpDataDir('none').then((dump) => ({ dump, businessId }));
  seededCopies.set(key, copy);
  copy.then(
    async () => {
      const sizes = await Promise.all([...seededCopies].map(async ([k, c]) => [k, (await c.catch(() => null))?.dump.size ?? 0] as const));
      let total = sizes.reduce((sum, [, size]) => sum + size, 0);
      for (const [k, size] of sizes) {
        if (total <= SEEDED_COPIES_MAX_BYTES || k === key) continue;
        seededCopies.delete(k);
        total -= size;
      }
    },
    () => seededCopies.delete(key),
  );
}

type Store = { open: { databaseUrl?: string; dataDir?: string }; dispose(): Promise<void> };

async function pgliteDir(dataDir: string | undefined): Promise<Store> {
  if (dataDir) return { open: { dataDir }, dispose: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), 'ledgerline-pglite-'));
  return { open: { dataDir: dir }, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * CREATE DATABASE ledgerline_t_<random> on the server at adminUrl (a copy of `template` when
 * given: server/test-templates.ts); DROP it on dispose.
 */
export async function createPgDatabase(adminUrl: string, opts: { template?: string } = {}): Promise<Store> {
  const name = `ledgerline_t_${randomBytes(6).toString('hex')}`;
  const create = `CREATE DATABASE ${name}${opts.template ? ` TEMPLATE ${opts.template}` : ''}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdmin(adminUrl, (c) => c.query(create));
      break;
    } catch (err) {
      // 55006: someone is connected to the template (its builder a moment ago): try again shortly.
      if (!opts.template || (err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    open: { databaseUrl: url.toString() },
    dispose: () => withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function withAdmin(adminUrl: string, fn: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

let available: Promise<boolean> | null = null;
/** Whether the test PostgreSQL answers (checked once per process). */
export function pgAvailable(adminUrl = DEFAULT_PG_ADMIN_URL): Promise<boolean> {
  available ??= withAdmin(adminUrl, (c) => c.query('SELECT 1')).then(
    () => true,
    () => false,
  );
  return available;
}
