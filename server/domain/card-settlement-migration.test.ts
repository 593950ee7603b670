import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, type Migration } from '../db/migrate.ts';
import { openTestDb, type TestDb } from '../test-db.ts';
import { makeBusiness } from '../test-fixtures.ts';
import { settleCardSpend } from './card-settlement.ts';

/**
 * Issue 30, migration 067 over 059's per-day rows: a SETTLED day's charges become its items (all of
 * them when they add up to what it settled; else those unchanged since it settled when they do, the
 * rest cleared later and settle in the next batch; else all, so nothing is paid twice), and a
 * business's FAILED days collapse into one open batch that the next run settles with every charge.
 */
describe('migration 067 (card settlement items)', () => {
  let t: TestDb;
  let all: Migration[];
  const before = (m: Migration) => m.name < '067_';
  beforeAll(async () => {
    t = await openTestDb('pglite', { migrated: false });
    all = await loadMigrations();
    await migrate(t.db, all.filter(before));
  });
  afterAll(() => t.close());

  it('records the settled days’ charges as items and leaves a late-cleared charge to the next batch', async () => {
    // 60 fixture charges, one an hour from 2026-01-01: Jan 1 (24), Jan 2 (24), Jan 3 (12); unchanged since they occurred.
    const f = await makeBusiness(t.db, { transactions: 60 });
    await t.db.query('UPDATE transactions SET updated_at = occurred_at WHERE business_id = $1', [f.businessId]);
    // Cleared on Jan 10, after Jan 2 settled: 059 never settled it.
    const late = randomUUID();
    await t.db.query(
      `INSERT INTO transactions (id, business_id, card_id, user_id, merchant_name, amount, currency, occurred_at, state, change_seq, updated_at)
       VALUES ($1, $2, $3, $4, 'Late', 777, 'USD', '2026-01-02T12:30:00Z', 'CLEARED', 1, '2026-01-10T00:00:00Z')`,
      [late, f.businessId, f.cards.admin, f.users.admin]);
    const day = async (d: string) => (await t.db.query<{ net: string; n: number }>(
      `SELECT sum(amount)::text AS net, count(*)::int AS n FROM transactions WHERE business_id = $1 AND id <> $2
          AND (occurred_at AT TIME ZONE 'UTC')::date = $3::date`, [f.businessId, late, d]))[0]!;
    const legacy = async (d: string, net: number, n: number, status = 'SETTLED', updatedAt = `${d}T06:00:00Z`) => t.db.query(
      `INSERT INTO card_settlements (id, business_id, currency, day, net, transactions, status, failure_reason, settled_at, updated_at)
       VALUES ($1, $2, 'USD', $3::date, $4, $5, $6, $7, $8, $9)`,
      [randomUUID(), f.businessId, d, net, n, status, status === 'FAILED' ? 'Not enough funds' : null, status === 'SETTLED' ? `${d}T23:59:00Z` : null, updatedAt]);
    const [jan1, jan2] = [await day('2026-01-01'), await day('2026-01-02')];
    await legacy('2026-01-01', Number(jan1.net), jan1.n); // everything adds up
    await legacy('2026-01-02', Number(jan2.net), jan2.n); // the unchanged ones add up, the late one does not belong
    await legacy('2026-01-03', 1, 12); // nothing adds up: all of them, never twice
    await legacy('2026-01-04', 0, 0, 'FAILED', '2026-01-08T00:00:00Z');
    await legacy('2026-01-05', 0, 0, 'FAILED', '2026-01-09T00:00:00Z');

    await migrate(t.db, all);
    const items = await t.db.query<{ transaction_id: string }>('SELECT transaction_id::text FROM card_settlement_items WHERE business_id = $1', [f.businessId]);
    expect(items).toHaveLength(60);
    expect(items.map((i) => i.transaction_id)).not.toContain(late);
    const failed = await t.db.query<{ day: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM card_settlements WHERE business_id = $1 AND status = 'FAILED'`, [f.businessId]);
    expect(failed).toEqual([{ day: '2026-01-05' }]);

    // The next run settles the late charge alone, as the open batch (the latest failed day's row).
    expect(await settleCardSpend(t.db, new Date('2026-01-20T12:00:00Z'))).toEqual({ settled: 1, failed: 0 });
    const batches = await t.db.query<{ net: string; status: string; cause: string; attempts: number }>(
      `SELECT net::text, status, cause, attempts FROM card_settlements WHERE business_id = $1 AND cause <> 'DAY'`, [f.businessId]);
    expect(batches).toEqual([{ net: '777', status: 'SETTLED', cause: 'AGED', attempts: 2 }]);
  });
});
