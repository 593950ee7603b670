/**
 * Databases for server tests: PGlite in memory always, PostgreSQL too when it is reachable.
 * Use with `describe.each(await testDatabases())` so every suite runs against both engines.
 */
import { afterEach } from 'vitest';
import { openDb, type Db } from './db/db.ts';
import { pgliteTemplate, pgTemplateDatabase } from './test-templates.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL, pgAvailable } from './testing.ts';

export type TestDbKind = 'pglite' | 'pg';
export type TestDb = { kind: TestDbKind; db: Db; close(): Promise<void> };

export async function testDatabases(): Promise<TestDbKind[]> {
  if (process.env.LEDGERLINE_SKIP_PG === '1') return ['pglite'];
  return (await pgAvailable()) ? ['pglite', 'pg'] : ['pglite'];
}

/**
 * A migrated, empty database of the given kind, copied from a template (built once per machine
 * and migration set: server/test-templates.ts); close() drops it. `migrated: false` leaves it
 * bare, for tests that migrate it step by step (the migration tests).
 */
export async function openTestDb(kind: TestDbKind, opts: { migrated?: boolean; poolSize?: number } = {}): Promise<TestDb> {
  const migrated = opts.migrated ?? true;
  if (kind === 'pglite') {
    // A copy of the template's data directory: no initdb, no migrations (server/test-templates.ts).
    const db = await openDb({ loadDataDir: await pgliteTemplate(migrated ? 'migrated' : 'bare') });
    return { kind, db, close: () => db.close() };
  }
  const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL, migrated ? { template: await pgTemplateDatabase(DEFAULT_PG_ADMIN_URL) } : {});
  const db = await openDb({ ...store.open, poolSize: opts.poolSize ?? 5 });
  return {
    kind,
    db,
    async close() {
      await db.close();
      await store.dispose();
    },
  };
}

/**
 * For the migration tests: `open(kind)` answers a bare (unmigrated) database, closed after each
 * test of the calling file (registers its own afterEach).
 */
export function useBareTestDbs(): (kind: TestDbKind) => Promise<Db> {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return async (kind) => {
    const t = await openTestDb(kind, { migrated: false, poolSize: 2 });
    closers.push(() => t.close());
    return t.db;
  };
}
