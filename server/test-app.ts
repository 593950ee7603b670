/** One database and app per test file (PGlite opens in seconds: share it, not per test). */
import { afterAll, beforeAll } from 'vitest';
import { createApp, type CreateAppOptions, type LedgerlineApp } from './app.ts';
import type { Db } from './db/db.ts';
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
