/**
 * Issue 30, exactly once through a crash: a child process (tsx) opens the PostgreSQL test database,
 * starts a transfer through transfer-core (the hold posted, the PENDING row written) and is
 * SIGKILLed before it commits. Afterwards nothing of it is in the database (no row, no entry, the
 * balances as before, the ledger checks); running it again posts it exactly once, and a third run
 * finds it there and posts nothing.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';
import { createPgDatabase, DEFAULT_PG_ADMIN_URL, pgAvailable } from '../testing.ts';
import { makeBusiness, type Fixture } from '../test-fixtures.ts';
import { checkLedger } from './check.ts';
import { openWalletAccount } from './ledger.ts';

const CHILD = fileURLToPath(new URL('../domain/treasury/kill9-child.ts', import.meta.url));

describe.skipIf(!(await pgAvailable()))('a transfer killed before its commit (PostgreSQL)', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: Db;
  let f: Fixture;
  let reserve: string;
  beforeAll(async () => {
    store = await createPgDatabase(DEFAULT_PG_ADMIN_URL);
    db = await openDb(store.open);
    await migrate(db);
    f = await makeBusiness(db, { transactions: 0, operating: { USD: 50_000 } });
    reserve = await db.transaction((tx) => openWalletAccount(tx, { businessId: f.businessId, kind: 'RESERVE', currency: 'USD', name: 'Reserve' }));
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await store?.dispose();
  });

  /** Runs the child; `killOnHeld`: SIGKILL it as soon as it printed HELD. Answers its output and how it ended. */
  function runChild(id: string, killOnHeld: boolean): Promise<{ out: string; code: number | null; signal: string | null }> {
    return new Promise((resolve, reject) => {
      // One process (node with tsx's loader), not the tsx CLI, which runs the script in a second process a kill would miss.
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        env: {
          ...process.env, DATABASE_URL: store.open.databaseUrl!, BUSINESS_ID: f.businessId, TRANSFER_ID: id,
          FROM_ID: f.operatingAccounts.USD!, TO_ID: reserve, AMOUNT: '12000', PAUSE: killOnHeld ? '1' : '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (killOnHeld && out.includes('HELD')) child.kill('SIGKILL');
      });
      child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
      child.on('error', reject);
      child.on('exit', (code, signal) => (code && code !== 0 ? reject(new Error(`child failed (${code}): ${err}`)) : resolve({ out, code, signal })));
    });
  }

  const state = async (id: string) => ({
    rows: Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_transfers WHERE id = $1', [id]))[0]!.n),
    entries: Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM journal_entries WHERE business_id = $1 AND idem_key LIKE 'transfer:' || $2 || ':%'`, [f.businessId, id]))[0]!.n),
    operating: Number((await db.query<{ b: string }>('SELECT balance::text AS b FROM ledger_accounts WHERE id = $1', [f.operatingAccounts.USD]))[0]!.b),
  });

  it('leaves nothing behind when killed after the hold, and posts once when run again', async () => {
    const id = randomUUID();
    const killed = await runChild(id, true);
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.out).toContain('HELD');
    expect(killed.out).not.toContain('DONE');
    // The killed client's backend rolls back and lets go of its locks.
    for (let i = 0; i < 100; i++) {
      const busy = await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()`);
      if (busy.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await state(id)).toEqual({ rows: 0, entries: 0, operating: 50_000 });
    expect((await checkLedger(db, f.businessId)).ok).toBe(true);

    const again = await runChild(id, false);
    expect(again.out).toContain('DONE');
    expect(await state(id)).toEqual({ rows: 1, entries: 1, operating: 38_000 });
    const third = await runChild(id, false);
    expect(third.out.trim()).toBe('EXISTS');
    expect(await state(id)).toEqual({ rows: 1, entries: 1, operating: 38_000 });
    expect((await checkLedger(db, f.businessId)).ok).toBe(true);
  }, 120_000);
});
