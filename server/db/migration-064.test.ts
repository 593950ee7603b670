import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeBusiness } from '../test-fixtures.ts';
import { testDatabases, useBareTestDbs } from '../test-db.ts';
import { loadMigrations, migrate } from './migrate.ts';

/**
 * 064_bank_accounts_mirrored: bank accounts that existed before it (live and deleted) take fresh
 * seqs from their business's counter in creation order, so mirrors pick them up; afterwards the
 * trigger stamps every write, and a write that sets its own seq keeps it.
 */
const open = useBareTestDbs();

describe.each(await testDatabases())('migration 064 on %s', (kind) => {
  it('gives existing bank accounts seqs in creation order, then stamps every insert and update', async () => {
    const db = await open(kind);
    const all = await loadMigrations();
    await migrate(db, all.filter((m) => m.name < '064'));
    const f = await makeBusiness(db, { transactions: 0 });
    const seqOf = async () => Number((await db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [f.businessId]))[0]!.s);
    const bankSeq = async (id: string) => Number((await db.query<{ s: number }>('SELECT change_seq AS s FROM bank_accounts WHERE id = $1', [id]))[0]!.s);
    const insert = (id: string, name: string, created: string, deleted = false) => db.query(
      `INSERT INTO bank_accounts (id, business_id, name, account_type, routing_number, account_number_enc, account_last4, currency, status, created_at, deleted)
       VALUES ($1, $2, $3, 'CHECKING', '021000021', 'enc', '6789', 'USD', 'UNVERIFIED', now() - $4::interval, $5)`,
      [id, f.businessId, name, created, deleted]);
    const [older, newer] = [randomUUID(), randomUUID()];
    await insert(newer, 'Newer', '1 hour', true);
    await insert(older, 'Older', '1 day');
    const before = await seqOf();

    expect(await migrate(db, all)).toEqual(all.filter((m) => m.name >= '064').map((m) => m.name));
    expect(await seqOf()).toBe(before + 2);
    expect([await bankSeq(older), await bankSeq(newer)]).toEqual([before + 1, before + 2]);

    const fresh = randomUUID();
    await insert(fresh, 'Fresh', '0 seconds');
    expect(await bankSeq(fresh)).toBe(before + 3);
    await db.query(`UPDATE bank_accounts SET name = 'Renamed' WHERE id = $1`, [older]);
    expect(await bankSeq(older)).toBe(before + 4);
    await db.query('UPDATE bank_accounts SET deleted = true WHERE id = $1', [fresh]);
    expect(await bankSeq(fresh)).toBe(before + 5);
    // A writer that stamps the row itself keeps its seq (and the counter does not move).
    await db.query('UPDATE bank_accounts SET change_seq = $2 WHERE id = $1', [older, before + 5]);
    expect(await bankSeq(older)).toBe(before + 5);
    expect(await seqOf()).toBe(before + 5);
  });
});
