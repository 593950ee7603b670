/**
 * Issue 33: a coding PATCH reads, checks and evaluates before its business's lock
 * (domain/prepared-write.ts), on PostgreSQL with real concurrent transactions. Each test holds one
 * write at a chosen statement (a gate on its transaction) and runs another write meanwhile:
 * - while the first only prepares, the other commits at once (no lock is held), and the first then
 *   acts on the row as that commit left it (no lost update), or refuses a GL account it made inactive
 *   or a row it exported (the PATCH asks in its UPDATE, bulk coding in a statement of its own);
 * - from the reservation to commit the lock is held with only the row write inside it, so another
 *   writer queues and a reader's high water never passes the uncommitted seq (the feed's guarantee).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { highWater } from '../db/change-seq.ts';
import type { Db, Queryable } from '../db/db.ts';
import { openTestDb, type TestDb } from '../test-db.ts';
import { makeBusiness, type Fixture } from '../test-fixtures.ts';
import { pgAvailable } from '../testing.ts';
import { bulkCode, codeTransaction } from './coding.ts';
import { writeMirrored } from './collections.ts';

const ALL = { all: true } as const;
const RESERVE = 'UPDATE businesses SET change_seq';
const WRITE_ROW = 'UPDATE transactions r SET';

type Gate = { q: Queryable; open: () => void; atGate: Promise<void>; statements: string[] };

/** `tx` that stops before the first statement starting with `prefix` until `open()`; records every statement. */
function gated(tx: Queryable, prefix: string): Gate {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  const statements: string[] = [];
  let held = false;
  const q: Queryable = {
    exec: (sql) => tx.exec(sql),
    notify: (channel, payload) => tx.notify(channel, payload),
    async query<T>(sql: string, params?: readonly unknown[]) {
      const text = sql.trim().replace(/\s+/g, ' ');
      statements.push(text);
      if (!held && text.startsWith(prefix)) {
        held = true;
        reached();
        await gate;
      }
      return tx.query<T>(sql, params);
    },
  };
  return { q, open, atGate, statements };
}

/** Starts `run` in a transaction of `db` and answers once it stands before `prefix` (or has settled). */
async function holdAt<T>(db: Db, prefix: string, run: (tx: Queryable) => Promise<T>): Promise<{ gate: Gate; result: Promise<T> }> {
  let made!: (g: Gate) => void;
  const ready = new Promise<Gate>((resolve) => (made = resolve));
  const result = db.transaction((tx) => {
    const g = gated(tx, prefix);
    made(g);
    return run(g.q);
  });
  result.catch(() => {});
  const gate = await ready;
  await Promise.race([gate.atGate, result.catch(() => {})]);
  return { gate, result };
}

/** Resolves to 'pending' if `p` has not settled within `ms`. */
const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);

describe.skipIf(!(await pgAvailable()))('writes prepared before the business lock (PostgreSQL)', () => {
  let t: TestDb;
  let f: Fixture;
  beforeEach(async () => {
    t = await openTestDb('pg', { poolSize: 4 });
    f = await makeBusiness(t.db, { transactions: 4 });
  });
  afterEach(() => t.close());

  const row = async (id: string) =>
    (await t.db.query<{ memo: string | null; gl: string | null; seq: number }>(
      'SELECT memo, gl_account_id::text AS gl, change_seq AS seq FROM transactions WHERE id = $1', [id]))[0]!;

  it('holds no lock while it prepares, and writes on what another write committed meanwhile', async () => {
    const id = f.allTransactions[0]!;
    const a = await holdAt(t.db, RESERVE, (tx) => codeTransaction(tx, f.businessId, ALL, id, { memo: 'from A' }));
    // A has read the row and checked its patch; B codes the same row and commits while A waits.
    const b = t.db.transaction((tx) => codeTransaction(tx, f.businessId, ALL, id, { gl_account_id: f.glAccounts.active[0]! }));
    expect(await within(b, 5000)).not.toBe('pending');
    const afterB = await row(id);
    a.gate.open();
    await a.result;
    const afterA = await row(id);
    // Without A's second look under the lock, its prepared row (GL unset) would undo B's GL.
    expect(afterA).toMatchObject({ memo: 'from A', gl: f.glAccounts.active[0] });
    expect(afterA.seq).toBeGreaterThan(afterB.seq);
  });

  it('refuses a GL account made inactive between its check and its write', async () => {
    const id = f.allTransactions[1]!;
    const gl = f.glAccounts.active[1]!;
    const a = await holdAt(t.db, RESERVE, (tx) => codeTransaction(tx, f.businessId, ALL, id, { gl_account_id: gl }));
    await t.db.transaction((tx) => writeMirrored(tx, f.businessId, 1, ({ seqs }) =>
      tx.query('UPDATE gl_accounts SET active = false, change_seq = $3 WHERE business_id = $1 AND id = $2', [f.businessId, gl, seqs.last])));
    a.gate.open();
    await expect(a.result).rejects.toMatchObject({ code: 'REQUEST_7001', errors: { gl_account_id: 'gl_account_id must be an active GL account' } });
    expect((await row(id)).gl).not.toBe(gl);
  });

  it('refuses a bulk coding whose row an accounting sync exported between its check and its write (the unguarded check)', async () => {
    const id = f.allTransactions[1]!;
    const a = await holdAt(t.db, RESERVE, (tx) => bulkCode(tx, f.businessId, ALL, { transaction_ids: [id], patch: { memo: 'bulk' } }));
    await t.db.transaction((tx) => writeMirrored(tx, f.businessId, 1, ({ seqs }) =>
      tx.query(`UPDATE transactions SET accounting_synced_at = '2026-11-30T12:00:00Z', change_seq = $3 WHERE business_id = $1 AND id = $2`,
        [f.businessId, id, seqs.last])));
    a.gate.open();
    await expect(a.result).rejects.toMatchObject({ code: 'ACCOUNTING_7301' });
    expect((await row(id)).memo).not.toBe('bulk');
    // The question was one statement of its own, right after the reservation.
    const reserved = a.gate.statements.findIndex((s) => s.startsWith(RESERVE));
    expect(a.gate.statements[reserved + 1]).toMatch(/^SELECT NOT \(EXISTS \(SELECT 1 FROM transactions /);
  });

  it('holds the lock from the reservation to commit around the row write alone: writers queue, readers never see the seq early', async () => {
    const [id, other] = [f.allTransactions[2]!, f.allTransactions[3]!];
    const before = await highWater(t.db, f.businessId);
    const a = await holdAt(t.db, WRITE_ROW, (tx) => codeTransaction(tx, f.businessId, ALL, id, { memo: 'locked' }));
    // A holds its reserved seq, uncommitted: a reader's high water is still the one before it.
    expect(await highWater(t.db, f.businessId)).toBe(before);
    const second = t.db.transaction((tx) => codeTransaction(tx, f.businessId, ALL, other, { memo: 'queued' }));
    expect(await within(second, 300)).toBe('pending');
    a.gate.open();
    const [coded, queued] = await Promise.all([a.result, second]);
    expect(coded.change_seq).toBe(before + 1);
    expect(queued.change_seq).toBe(before + 2);
    expect(await highWater(t.db, f.businessId)).toBe(before + 2);
    // Inside the lock: the reservation, then the row write; everything else ran before it.
    const reserved = a.gate.statements.findIndex((s) => s.startsWith(RESERVE));
    expect(reserved).toBeGreaterThan(0);
    expect(a.gate.statements.slice(reserved + 1).map((s) => s.slice(0, WRITE_ROW.length))).toEqual([WRITE_ROW]);
  });
});
