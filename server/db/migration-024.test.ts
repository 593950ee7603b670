import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeBusiness } from '../test-fixtures.ts';
import { testDatabases, useBareTestDbs } from '../test-db.ts';
import { loadMigrations, migrate } from './migrate.ts';

/**
 * 024_business_entity_owners: entities that existed before it take fresh seqs from their
 * business's counter (creation order), so mirrors pick them up; departments with owners take a
 * new seq too (their feed doc now carries owner_ids); nothing else moves.
 */
const open = useBareTestDbs();

describe.each(await testDatabases())('migration 024 on %s', (kind) => {
  it('gives existing entities seqs in creation order and re-stamps departments that have owners', async () => {
    const db = await open(kind);
    const all = await loadMigrations();
    await migrate(db, all.filter((m) => m.name < '024'));
    const f = await makeBusiness(db, { transactions: 0, operating: {} });
    const seqOf = async () => Number((await db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [f.businessId]))[0]!.s);
    const [first, second] = [randomUUID(), randomUUID()];
    await db.query(
      `INSERT INTO business_entities (id, business_id, name, country, currency, created_at) VALUES
        ($1, $3, 'Second', 'DE', 'EUR', now()), ($2, $3, 'First', 'GB', 'GBP', now() - interval '1 day')`,
      [second, first, f.businessId],
    );
    await db.query('UPDATE departments SET owner_ids = ARRAY[$2::uuid] WHERE id = $1', [f.departments[0], f.users.admin]);
    const untouched = await db.query<{ change_seq: number }>('SELECT change_seq FROM departments WHERE id = $1', [f.departments[1]]);
    const before = await seqOf();

    expect(await migrate(db, all)).toEqual(all.filter((m) => m.name >= '024').map((m) => m.name));
    expect(await seqOf()).toBe(before + 3);
    const entities = await db.query<{ id: string; change_seq: number; owner_ids: string[] }>(
      'SELECT id::text, change_seq, owner_ids::text[] AS owner_ids FROM business_entities WHERE business_id = $1 ORDER BY change_seq',
      [f.businessId],
    );
    expect(entities.map((e) => [e.id, Number(e.change_seq), e.owner_ids])).toEqual([[first, before + 1, []], [second, before + 2, []]]);
    const owned = await db.query<{ change_seq: number }>('SELECT change_seq FROM departments WHERE id = $1', [f.departments[0]]);
    expect(Number(owned[0]!.change_seq)).toBe(before + 3);
    const still = await db.query<{ change_seq: number }>('SELECT change_seq FROM departments WHERE id = $1', [f.departments[1]]);
    expect(Number(still[0]!.change_seq)).toBe(Number(untouched[0]!.change_seq));
  });
});
