/**
 * Issue 33: what a search's audit row costs (server/auth/audit.ts), durable against asynchronously
 * committed, on the PostgreSQL the server would use.
 *
 *   npx tsx bench/load-audit-commit.ts [--rows 200] [--rounds 2] [--database-url postgres://…/admin-db]
 *
 * In a fresh migrated database (dropped at the end), writes `rows` audit rows one after another
 * through `recordAudit`, as the durable row of a write and as the row of a read-only call, `rounds`
 * times each in turn; prints ms per row and the cluster's WAL flushes (pg_stat_wal.wal_sync: the
 * whole server's, so other databases' writers add to it; read it as an upper bound).
 */
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../server/auth/audit.ts';
import { openDb, type Db } from '../server/db/db.ts';
import { migrate } from '../server/db/migrate.ts';
import { createPgDatabase } from '../server/testing.ts';

const argv = process.argv.slice(2);
const arg = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const rows = Number(arg('rows') ?? 200);
const rounds = Number(arg('rounds') ?? 2);
const adminUrl = arg('database-url') ?? process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const walSyncs = async (db: Db) => Number((await db.query<{ n: string }>('SELECT wal_sync::text AS n FROM pg_stat_wal'))[0]!.n);

async function round(db: Db, readOnly: boolean): Promise<{ msPerRow: number; walSyncs: number }> {
  const before = await walSyncs(db);
  const t0 = performance.now();
  for (let i = 0; i < rows; i++) {
    await recordAudit(db, {
      identityId: randomUUID(), spendUserId: randomUUID(), businessId: randomUUID(), impersonatorEmail: null,
      callId: 'transactions.search', method: 'POST', path: '/v1/auth/transactions/search', status: 200, readOnly,
    });
  }
  const ms = performance.now() - t0;
  return { msPerRow: Math.round((ms / rows) * 100) / 100, walSyncs: (await walSyncs(db)) - before };
}

const store = await createPgDatabase(adminUrl);
const db = await openDb({ ...store.open, poolSize: 1 });
try {
  await migrate(db);
  console.log(`${rows} audit rows a round, one at a time (load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`);
  console.log('| round | row | ms per row | WAL flushes (cluster) |\n|---|---|---:|---:|');
  for (let r = 1; r <= rounds; r++) {
    for (const readOnly of [false, true]) {
      const out = await round(db, readOnly);
      console.log(`| ${r} | ${readOnly ? 'read-only call (async commit)' : 'write (durable)'} | ${out.msPerRow} | ${out.walSyncs} |`);
    }
  }
} finally {
  await db.close();
  await store.dispose();
}
