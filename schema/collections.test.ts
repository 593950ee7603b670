import { describe, expect, it } from 'vitest';
import {
  ENTITIES,
  LOCAL_COLLECTIONS,
  MIRRORED_COLLECTIONS,
  QUERIED_COLLECTIONS,
  REFERENCE_COLLECTIONS,
  RXDB_COLLECTION_LIMIT,
} from './collections.ts';
import { VISIBILITY_RULES } from './entities/define-entity.ts';
import { MIRROR_ENTITY_SCHEMAS, mirrorJsonSchemas } from './mirror.ts';
import { mirroredCollectionSchema } from './sync-feed.ts';
import { transactionSchema, type Transaction } from './entities/transaction.ts';

const sorted = (xs: readonly string[]) => [...xs].sort();
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function makeTransactionRow(overrides: Partial<Transaction> = {}): Transaction {
  return transactionSchema.parse({
    id: id(1), card_id: id(2), user_id: id(3), merchant_name: 'Blue Bottle', merchant_category: 'Coffee',
    amount: 450, currency: 'USD', occurred_at: '2024-05-01T10:00:00Z', state: 'CLEARED', memo: null,
    gl_account_id: id(4), department_id: id(5), location_id: id(6), tracking: { [id(7)]: id(8) },
    business_id: id(9), change_seq: 1, updated_at: '2024-05-01T10:00:00Z', deleted: false,
    ...overrides,
  });
}

describe('the collection registry', () => {
  it('lists each collection once, under the name its definition gives', () => {
    expect(new Set(MIRRORED_COLLECTIONS).size).toBe(MIRRORED_COLLECTIONS.length);
    for (const c of MIRRORED_COLLECTIONS) expect(ENTITIES[c].name).toBe(c);
    expect(sorted(Object.keys(ENTITIES))).toEqual(sorted(MIRRORED_COLLECTIONS));
  });

  it('derives every per-collection list from the definitions: feed enum, zod schemas, JSON schemas, worker lists', () => {
    expect(sorted(mirroredCollectionSchema.options)).toEqual(sorted(MIRRORED_COLLECTIONS));
    expect(sorted(Object.keys(MIRROR_ENTITY_SCHEMAS))).toEqual(sorted(MIRRORED_COLLECTIONS));
    expect(sorted(Object.keys(mirrorJsonSchemas()))).toEqual(sorted(MIRRORED_COLLECTIONS));
    expect(sorted([...QUERIED_COLLECTIONS, ...REFERENCE_COLLECTIONS])).toEqual(sorted(MIRRORED_COLLECTIONS));
    for (const c of MIRRORED_COLLECTIONS) {
      expect(MIRROR_ENTITY_SCHEMAS[c]).toBe(ENTITIES[c].schema);
      expect(mirrorJsonSchemas()[c].title).toBe(c);
    }
  });

  it.each(MIRRORED_COLLECTIONS)('%s: its definition names fields its schema has', (c) => {
    const def = ENTITIES[c];
    const fields = Object.keys(def.schema.shape);
    expect(fields).toContain(def.idField);
    expect(VISIBILITY_RULES).toContain(def.visibility);
    expect(def.searchText.length).toBeGreaterThan(0);
    for (const f of def.searchText) expect(fields).toContain(f);
    // Visibility 'owner' filters on user_id: a collection without one could not be filtered.
    if (def.visibility === 'owner') expect(fields).toContain('user_id');
    const json = mirrorJsonSchemas()[c];
    for (const index of def.mirror.indexes.flat()) expect(Object.keys(json.properties)).toContain(index);
  });

  // Reference kinds share the one `refs` RxDB collection (workers/db.ts), so only `own`
  // collections count one each; the feed's collection count alone may exceed the limit (vendors
  // made it 12 mirrored + 2 local).
  it('keeps the mirror within the free RxDB build: own collections, one refs, the local ones', () => {
    const own = MIRRORED_COLLECTIONS.filter((c) => ENTITIES[c].mirror.kind === 'own').length;
    const refs = MIRRORED_COLLECTIONS.length - own;
    expect(own + (refs > 0 ? 1 : 0) + LOCAL_COLLECTIONS.length).toBeLessThanOrEqual(RXDB_COLLECTION_LIMIT);
  });

  it('gives transactions a query spec whose referenced ids are every name in its search text', () => {
    const query = ENTITIES.transactions.query;
    const t = makeTransactionRow();
    expect(sorted(query.referencedIds(t))).toEqual(
      sorted([t.user_id, t.gl_account_id!, t.department_id!, t.location_id!, ...Object.entries(t.tracking).flat()]),
    );
    expect(query.referencedIds({ ...t, gl_account_id: null, department_id: null, location_id: null, tracking: {} })).toEqual([t.user_id]);
    expect(query.sorts).toContain('occurred_desc');
    expect(query.matches(t, query.filter.parse({ states: 'CLEARED' }))).toBe(t.state === 'CLEARED');
  });
});
