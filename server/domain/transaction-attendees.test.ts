import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codingPatchSchema } from '../../schema/commands/coding-patch.ts';
import { transactionSchema } from '../../schema/entities/transaction.ts';
import { hashPassword } from '../auth/password.ts';
import { seedDemo } from '../seed/seed.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { bulkCode, codeTransaction } from './coding.ts';
import { findTransaction } from './transaction-sql.ts';
import type { Visibility } from './visibility.ts';

/**
 * Issue 26's proof field: a transaction's attendees, added with the entity's columns, migration
 * 037 and the coding patch alone. The PATCH and the bulk update write it, every read (doc SQL
 * derived from the columns) sends it, and the patch refuses what the entity refuses.
 */
const ALL: Visibility = { all: true };
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });

describe('attendees: the patch schema', () => {
  it('takes a list of names or emails, trimmed; refuses blanks and more than 50', () => {
    expect(codingPatchSchema.parse({ attendees: [' Ana Ruiz ', 'bo@example.com'] })).toEqual({ attendees: ['Ana Ruiz', 'bo@example.com'] });
    expect(codingPatchSchema.parse({ attendees: [] })).toEqual({ attendees: [] });
    expect(codingPatchSchema.safeParse({ attendees: ['  '] }).success).toBe(false);
    expect(codingPatchSchema.safeParse({ attendees: Array.from({ length: 51 }, (_, i) => `p${i}`) }).success).toBe(false);
    expect(codingPatchSchema.safeParse({ attendees: 'Ana' }).success).toBe(false);
  });
});

describe.each(await testDatabases())('attendees on %s', (kind) => {
  let t: TestDb;
  let businessId: string;
  let ids: string[];

  beforeAll(async () => {
    t = await openTestDb(kind);
    ({ businessId } = await seedDemo(t.db, { transactions: 20, now: new Date('2026-11-21T00:00:00.000Z'), hashPassword: fastHash }));
    const rows = await t.db.query<{ id: string }>(
      'SELECT id FROM transactions WHERE business_id = $1 AND accounting_synced_at IS NULL AND NOT deleted ORDER BY id LIMIT 3',
      [businessId],
    );
    ids = rows.map((r) => r.id);
  }, 120_000);
  afterAll(() => t?.close());

  it('a row starts with none; the PATCH sets them and the answer, the read and the feed doc carry them', async () => {
    expect((await findTransaction(t.db, businessId, ALL, ids[0]!))?.attendees).toEqual([]);
    const doc = await t.db.transaction((tx) => codeTransaction(tx, businessId, ALL, ids[0]!, { attendees: ['Ana Ruiz', 'bo@example.com'] }));
    expect(doc.attendees).toEqual(['Ana Ruiz', 'bo@example.com']);
    const read = await findTransaction(t.db, businessId, ALL, ids[0]!);
    expect(transactionSchema.parse(read)).toMatchObject({ attendees: ['Ana Ruiz', 'bo@example.com'] });
    // A row from a server or an outbox copy older than the field still parses.
    const { attendees, ...older } = read!;
    expect(attendees).toHaveLength(2);
    expect(transactionSchema.parse(older).attendees).toBeUndefined();
  });

  it('a memo edit keeps them; the bulk update replaces them on every row it names', async () => {
    await t.db.transaction((tx) => codeTransaction(tx, businessId, ALL, ids[0]!, { memo: 'Team lunch' }));
    expect((await findTransaction(t.db, businessId, ALL, ids[0]!))).toMatchObject({ memo: 'Team lunch', attendees: ['Ana Ruiz', 'bo@example.com'] });
    await t.db.transaction((tx) => bulkCode(tx, businessId, ALL, { transaction_ids: [ids[0]!, ids[1]!], patch: { attendees: ['Cy'] } }));
    for (const id of ids.slice(0, 2)) expect((await findTransaction(t.db, businessId, ALL, id))?.attendees).toEqual(['Cy']);
    expect((await findTransaction(t.db, businessId, ALL, ids[2]!))?.attendees).toEqual([]);
    expect((await findTransaction(t.db, businessId, ALL, ids[0]!))?.memo).toBe('Team lunch');
  });
});
