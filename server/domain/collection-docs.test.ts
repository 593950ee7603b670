import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES, MIRRORED_COLLECTIONS } from '../../schema/collections.ts';
import { hashPassword } from '../auth/password.ts';
import { seedDemo } from '../seed/seed.ts';
import { openTestDb, testDatabases, type TestDb } from '../test-db.ts';
import { columnOf } from '../../schema/entities/columns.ts';
import type { AnyEntityDef } from '../../schema/entities/define-entity.ts';
import { COLLECTIONS } from './collections.ts';

/**
 * Issue 26: the feed's documents are derived from each entity's column map. This holds every
 * collection's docs for one seeded business (fixed seed and day) to the file snapshot taken from
 * the hand-written SQL before it was deleted, so the derived SQL sends exactly what it sent.
 * The seed is deterministic but for the business id, which the snapshot names `<business>`;
 * rows are in id order. PGlite and PostgreSQL must both match it.
 */
const NOW = new Date('2026-11-21T00:00:00.000Z');
const fastHash = (password: string) => hashPassword(password, { N: 1024, r: 8, p: 1 });

describe.each(await testDatabases())('collection docs on %s', (kind) => {
  let t: TestDb;
  let businessId: string;

  beforeAll(async () => {
    t = await openTestDb(kind);
    ({ businessId } = await seedDemo(t.db, { transactions: 120, bills: 15, reimbursements: 15, receipts: true, now: NOW, hashPassword: fastHash }));
  }, 120_000);
  afterAll(() => t?.close());

  it('sends the snapshot documents for every mirrored collection', async () => {
    const docs: Record<string, unknown[]> = {};
    for (const c of MIRRORED_COLLECTIONS) {
      const { table, docSql } = COLLECTIONS[c];
      // change_seq IS NOT NULL: ledger_accounts (wallet_accounts) also holds the ledger's system accounts, never on the wire.
      const rows = await t.db.query<{ doc: string }>(
        `SELECT (${docSql})::text AS doc FROM ${table} r WHERE r.business_id = $1 AND r.change_seq IS NOT NULL ORDER BY r.id`,
        [businessId],
      );
      docs[c] = rows.map((r) => JSON.parse(r.doc.split(businessId).join('<business>')));
    }
    await expect(`${JSON.stringify(docs, null, 1)}\n`).toMatchFileSnapshot('./__snapshots__/collection-docs.json');
  });

  it.each(MIRRORED_COLLECTIONS)('%s: each column of the map is in the table with its type, and the indexed ones are in an index', async (c) => {
    const columns = (ENTITIES[c] as AnyEntityDef).columns;
    const table = COLLECTIONS[c].table;
    const found = await t.db.query<{ name: string; type: string; indexed: boolean }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
              EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND a.attnum = ANY(i.indkey)) AS indexed
         FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped`,
      [table],
    );
    const byName = new Map(found.map((f) => [f.name, f]));
    const TYPES: Record<string, string> = { int: 'integer', bool: 'boolean', timestamptz: 'timestamp with time zone', 'uuid[]': 'uuid[]' };
    for (const [field, col] of Object.entries(columns)) {
      if (col.sql) continue;
      const have = byName.get(columnOf(field, col));
      expect(have, `${table}.${columnOf(field, col)}`).toBeDefined();
      expect(have!.type.replace(/\(.*\)/, ''), `${table}.${columnOf(field, col)}`).toBe(TYPES[col.type] ?? col.type);
      if (col.indexed) expect(have!.indexed, `${table}.${columnOf(field, col)} indexed`).toBe(true);
    }
  });
});
