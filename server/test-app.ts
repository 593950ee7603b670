/** One database and app per test file (PGlite opens in seconds: share it, not per test). */
import { afterAll, beforeAll } from 'vitest';
import { createApp, type CreateAppOptions, type LedgerlineApp } from './app.ts';
import { openDb, type Db } from './db/db.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL } from './testing.ts';
import { openTestDb, type TestDb, type TestDbKind } from './test-db.ts';

export const TEST_TOKEN_SECRET = 'test-secret-0123456789abcdef0123456789';

export type TestApp = { kind: TestDbKind; db: Db; app: LedgerlineApp; testDb: TestDb };

export function useTestApp(kind: TestDbKind, opts: Partial<CreateAppOptions> = {}): TestApp {
  const ctx = { kind } as TestApp;
  beforeAll(async () => {
    ctx.testDb = await openTestDb(kind);
    ctx.db = ctx.testDb.db;
    ctx.app = createApp({ db: ctx.db, tokenSecret: TEST_TOKEN_SECRET, ...opts });
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.testDb?.close();
  });
  return ctx;
}

export type TwoProcesses = { dbA: Db; dbB: Db; appA: LedgerlineApp; appB: LedgerlineApp; close(): Promise<void> };

/**
 * Two API processes on one fresh PostgreSQL database: each has its own pool (and LISTEN
 * connection), as separate server processes would. Migrations are left to the caller.
 */
export async function twoProcessesOnOnePg(): Promise<TwoProcesses> {
  const store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
  const dbA = await openDb({ ...store.open, poolSize: 3 });
  const dbB = await openDb({ ...store.open, poolSize: 3 });
  const appA = createApp({ db: dbA, tokenSecret: TEST_TOKEN_SECRET });
  const appB = createApp({ db: dbB, tokenSecret: TEST_TOKEN_SECRET });
  return {
    dbA, dbB, appA, appB,
    async close() {
      await appA.close();
      await appB.close();
      await dbA.close();
      await dbB.close();
      await store.dispose();
    },
  };
}
