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

/** A migrated, empty database of the given kind; close() drops it. */
export async function openTestDb(kind: TestDbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await openDb();
    await migrate(db);
    return { kind, db, close: () => db.close() };
  }
  const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
  const db = await openDb({ ...store.open, poolSize: 5 });
  await migrate(db);
  return {
    kind,
    db,
    async close() {
      await db.close();
      await store.dispose();
    },
  };
}
