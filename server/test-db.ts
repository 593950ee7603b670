/**
 * Databases for server tests: PGlite in memory always, PostgreSQL too when it is reachable.
 * Use with `describe.each(await testDatabases())` so every suite runs against both engines.
 */
import { openDb, type Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL, pgAvailable } from './testing.ts';

export type TestDbKind = 'pglite' | 'pg';
export type TestDb = { kind: TestDbKind; db: Db; close(): Promise<void> };

export async function testDatabases(): Promise<TestDbKind[]> {
  if (process.env.LEDGERLINE_SKIP_PG === '1') return ['pglite'];
  return (await pgAvailable()) ? ['pglite', 'pg'] : ['pglite'];
}

/**
 * A migrated, empty database of the given kind; close() drops it. `migrated: false` leaves it
 * bare, for tests that migrate it step by step (the migration tests).
 */
export async function openTestDb(kind: TestDbKind, opts: { migrated?: boolean; poolSize?: number } = {}): Promise<TestDb> {
  const migrated = opts.migrated ?? true;
  if (kind === 'pglite') {
    const db = await openDb();
    if (migrated) await migrate(db);
    return { kind, db, close: () => db.close() };
  }
  const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
  const db = await openDb({ ...store.open, poolSize: opts.poolSize ?? 5 });
  if (migrated) await migrate(db);
  return {
    kind,
    db,
    async close() {
      await db.close();
      await store.dispose();
    },
  };
}
