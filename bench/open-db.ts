import { openDb, type Db } from '../server/db/db.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL } from '../server/testing.ts';

/** A bench's database: PGlite in memory, or (`pg`) a fresh PostgreSQL database dropped on close. */
export async function openBenchDb(pg: boolean | undefined): Promise<{ db: Db; close: () => Promise<void> }> {
  if (!pg) {
    const db = await openDb();
    return { db, close: () => db.close() };
  }
  const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
  const db = await openDb({ ...store.open, poolSize: 2 });
  return { db, close: async () => { await db.close(); await store.dispose(); } };
}
