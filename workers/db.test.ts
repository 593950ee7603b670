import { afterEach, describe, expect, it } from 'vitest';
import { checkSchema } from 'rxdb/plugins/dev-mode';
import { createRxDatabase, getAllCollectionDocuments, type RxJsonSchema } from 'rxdb';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { MIRRORED_COLLECTIONS } from '../schema/sync-feed.ts';
import { ENTITIES, QUERIED_COLLECTIONS, REFERENCE_COLLECTIONS, RXDB_COLLECTION_LIMIT } from '../schema/collections.ts';
import { mirrorJsonSchema } from '../schema/mirror.ts';
import { createOutboxEntry } from '../sync/outbox-machine.ts';
import { WORKER_COLLECTIONS } from './collections/index.ts';
import { toMirrored } from './collections/transactions.ts';
import { getDocs, putDocs, scanDocs } from './bulk-write.ts';
import {
  CHECKPOINT_ID, MIRROR_LAYOUT, mirrorDbName, openMirrorDatabase, OWN_COLLECTIONS, REF_KINDS, refKey, RX_COLLECTIONS, rxSchemas,
  splitRefKey, type MirrorDatabase, mirrorStorage } from './db.ts';
import { makeBill, makeTransaction, makeUser, openTestDatabase, testUuid } from './test-fixtures.ts';

let db: MirrorDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

describe('mirror JSON schemas derived from the zod entities', () => {
  for (const collection of MIRRORED_COLLECTIONS) {
    it(`${collection} passes RxDB's own schema check`, () => {
      const schema = mirrorJsonSchema(collection);
      expect(schema.primaryKey).toBe('id');
      expect(schema.properties.id).toMatchObject({ type: 'string', maxLength: 36 });
      expect(schema.required).toContain('id');
      // Dev-mode's checker, run here rather than shipped (dev-mode injects an iframe in browsers).
      expect(() => checkSchema(schema as unknown as RxJsonSchema<unknown>)).not.toThrow();
      for (const field of schema.indexes.flat()) {
        const prop = schema.properties[field]!;
        expect(schema.required, `${field} is indexed, so required`).toContain(field);
        if (prop.type === 'string') expect(prop.maxLength).toBeTypeOf('number');
        if (prop.type === 'number' || prop.type === 'integer') {
          expect(prop).toMatchObject({ minimum: expect.any(Number), maximum: expect.any(Number), multipleOf: expect.any(Number) });
        }
      }
    });
  }

  it('indexes transactions only for the newest-first cold-start read', () => {
    expect(mirrorJsonSchema('transactions').indexes).toEqual(['occurred_desc']);
    expect(mirrorJsonSchema('transactions').properties.occurred_desc).toMatchObject({ type: 'number', multipleOf: 1 });
  });
});

describe('openMirrorDatabase', () => {

  it('opens its own collections, one shared refs collection, outbox and meta: twelve of the 13 allowed', async () => {
    db = await openTestDatabase();
    expect(Object.keys(db.collections).sort()).toEqual([...RX_COLLECTIONS].sort());
    expect(Object.keys(db.collections).sort()).toEqual(['approvals', 'bills', 'card_requests', 'cards', 'meta', 'notifications', 'outbox', 'refs', 'reimbursements', 'spend_requests', 'transactions', 'trips']);
    expect(RX_COLLECTIONS).toHaveLength(12);
  });

  it('passes RxDB\'s own schema check for refs, outbox and meta', () => {
    for (const [name, schema] of Object.entries(rxSchemas())) {
      expect(() => checkSchema(schema as RxJsonSchema<unknown>), name).not.toThrow();
    }
  });

  it('keys refs rows by kind and id, as RxDB composes its primary key', async () => {
    db = await openTestDatabase();
    const id = testUuid(2, 1);
    expect(refKey('users', id)).toBe(db.refs.schema.getPrimaryOfDocumentData({ kind: 'users', row_id: id }));
    expect(splitRefKey(refKey('gl_accounts', id))).toEqual({ kind: 'gl_accounts', id });
  });

  it('names a database per business and user', () => {
    const a = mirrorDbName('0B0B0B0B-0000-4000-8000-000000000001', 'aaaa');
    expect(a).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(a).not.toBe(mirrorDbName('0B0B0B0B-0000-4000-8000-000000000001', 'bbbb'));
  });
});

describe('the collection budget', () => {
  it('gives every mirrored collection a place: an RxDB collection of its own, or a kind in refs', () => {
    // The refs kinds are part of the layout (the refs schema no longer lists them).
    const refKinds = MIRROR_LAYOUT.match(/refs:([a-z_+]+)/)?.[1]?.split('+') ?? [];
    expect(RX_COLLECTIONS.includes('refs') || refKinds.length === 0).toBe(true);
    for (const c of MIRRORED_COLLECTIONS) {
      const placed = ENTITIES[c].mirror.kind === 'own' ? RX_COLLECTIONS.includes(c) : refKinds.includes(c);
      expect(placed, `${c} has no place in the worker`).toBe(true);
    }
    expect([...OWN_COLLECTIONS, ...REF_KINDS].sort()).toEqual([...MIRRORED_COLLECTIONS].sort());
    expect(refKinds.sort()).toEqual([...REF_KINDS].sort());
  });

  it('stores every reference collection (no query spec) in refs, and only those', () => {
    expect(REFERENCE_COLLECTIONS.length).toBeGreaterThan(0);
    for (const c of REFERENCE_COLLECTIONS) {
      expect(ENTITIES[c].mirror.kind, `${c} is reference data: it lives in refs`).toBe('ref');
      expect(RX_COLLECTIONS, `${c} has no RxDB collection of its own`).not.toContain(c);
    }
    expect([...REF_KINDS].sort()).toEqual([...REFERENCE_COLLECTIONS].sort());
    expect([...OWN_COLLECTIONS].sort()).toEqual([...QUERIED_COLLECTIONS].sort());
    expect(QUERIED_COLLECTIONS).toEqual(expect.arrayContaining(['cards', 'card_requests']));
  });

  it('serves every queried collection from an own collection with a worker entry', () => {
    for (const c of QUERIED_COLLECTIONS) {
      expect(ENTITIES[c].mirror.kind, `${c} is queried: its engine loads and follows its own collection`).toBe('own');
      expect(WORKER_COLLECTIONS[c].name).toBe(c);
    }
  });

  it('opens no more collections than the free RxDB build allows', () => {
    expect(new Set(RX_COLLECTIONS).size).toBe(RX_COLLECTIONS.length);
    expect(RX_COLLECTIONS.length).toBeLessThanOrEqual(RXDB_COLLECTION_LIMIT);
  });
});

describe('a mirror stored with another layout', () => {
  it('is emptied and pulled again, keeping the outbox; retired collections leave the device', async () => {
    const idb = new IDBFactory();
    const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
    // The layout before refs: users in a collection of its own, no layout marker.
    const old = await createRxDatabase({ name: 'layout-test', storage: storage(), multiInstance: false });
    const schemas = rxSchemas();
    await old.addCollections({
      transactions: { schema: schemas.transactions! },
      users: { schema: mirrorJsonSchema('users') as unknown as RxJsonSchema<unknown> },
      outbox: { schema: schemas.outbox! },
      meta: { schema: schemas.meta! },
    });
    const txn = makeTransaction();
    const { deleted, ...user } = makeUser(1, 'Ada', 'Lovelace');
    void deleted;
    await putDocs(old.collections.transactions!, [toMirrored(txn)]);
    await putDocs(old.collections.users!, [user]);
    const entry = createOutboxEntry({ id: testUuid(9, 1), command: 'transaction.code', args: { transaction_id: txn.id, patch: { memo: 'x' } }, now: 1 });
    await old.collections.outbox!.insert(entry);
    await old.collections.meta!.insert({ id: CHECKPOINT_ID, value: { seq: 5, epoch: 'e', count: 1 } });
    await old.close();

    db = await openMirrorDatabase({ name: 'layout-test', storage: storage(), multiInstance: false });
    expect((await db.meta.findOne(CHECKPOINT_ID).exec())?.toJSON().value).toEqual({ seq: 0, epoch: null, count: 0 });
    expect((await db.meta.findOne('layout').exec())?.toJSON().value).toBe(MIRROR_LAYOUT);
    expect((await getDocs(db.transactions, [txn.id])).size).toBe(0);
    expect((await db.outbox.findOne(entry.id).exec())?.toJSON().command).toBe('transaction.code');
    const stored = await getAllCollectionDocuments(db.internalStore);
    expect(stored.map((d) => d.data.name)).not.toContain('users');

    // Reopened with the same layout: nothing is cleared again.
    await putDocs(db.transactions, [toMirrored(txn)]);
    await db.close();
    db = await openMirrorDatabase({ name: 'layout-test', storage: storage(), multiInstance: false });
    const rows: { id: string }[] = [];
    for await (const page of scanDocs(db.transactions, 10)) rows.push(...page);
    expect(rows.map((r) => r.id)).toEqual([txn.id]);
  });
});

describe('a mirror whose refs were stored at schema version 0 (kinds listed in an enum)', () => {
  it('opens (the docs migrate), and a new reference kind empties it for a full pull, keeping the outbox', async () => {
    const idb = new IDBFactory();
    const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
    const schemas = rxSchemas();
    const refsV0 = {
      ...(schemas.refs as RxJsonSchema<{ id: string }>),
      version: 0,
      properties: {
        ...(schemas.refs as RxJsonSchema<{ id: string }>).properties,
        kind: { type: 'string', enum: ['users', 'departments', 'locations', 'gl_accounts', 'tracking_categories'], maxLength: 32 },
      },
    } as RxJsonSchema<unknown>;
    const old = await createRxDatabase({ name: 'refs-v0', storage: storage(), multiInstance: false });
    await old.addCollections({
      ...Object.fromEntries(OWN_COLLECTIONS.map((c) => [c, { schema: schemas[c]! }])),
      refs: { schema: refsV0 },
      outbox: { schema: schemas.outbox! },
      meta: { schema: schemas.meta! },
    });
    const { deleted, ...user } = makeUser(1, 'Ada', 'Lovelace');
    void deleted;
    await old.collections.refs!.insert({ kind: 'users', row_id: user.id, row: user });
    const entry = createOutboxEntry({ id: testUuid(9, 2), command: 'transaction.code', args: { transaction_id: testUuid(1, 1), patch: { memo: 'x' } }, now: 1 });
    await old.collections.outbox!.insert(entry);
    await old.collections.meta!.insert({ id: CHECKPOINT_ID, value: { seq: 7, epoch: 'e', count: 0 } });
    await old.collections.meta!.insert({ id: 'layout', value: 'an older layout' });
    await old.close();

    db = await openMirrorDatabase({ name: 'refs-v0', storage: storage(), multiInstance: false });
    expect(MIRROR_LAYOUT).toContain(`refs:${[...REF_KINDS].sort().join('+')}`);
    expect((await db.meta.findOne('layout').exec())?.toJSON().value).toBe(MIRROR_LAYOUT);
    expect((await db.meta.findOne(CHECKPOINT_ID).exec())?.toJSON().value).toEqual({ seq: 0, epoch: null, count: 0 });
    expect(await db.refs.count().exec()).toBe(0);
    expect((await db.outbox.findOne(entry.id).exec())?.toJSON().command).toBe('transaction.code');
    // Any kind can now be stored without a schema change.
    await db.refs.insert({ kind: 'reimbursement_rates', row_id: testUuid(3, 1), row: { id: testUuid(3, 1) } } as never);
    expect(await db.refs.count().exec()).toBe(1);
  });
});

describe('a mirror stored before bills were mirrored (issue 11)', () => {
  it('opens with the bills collection, emptied and rewound for a full pull (so its bills arrive), keeping the outbox', async () => {
    const idb = new IDBFactory();
    const storage = () => mirrorStorage({ indexedDB: idb, IDBKeyRange });
    const schemas = rxSchemas();
    // Exactly the previous layout: every collection of today but bills, and its marker.
    const before = OWN_COLLECTIONS.filter((c) => c !== 'bills');
    const oldLayout = MIRROR_LAYOUT.split(',').filter((part) => !part.startsWith('bills@')).join(',');
    expect(oldLayout).not.toBe(MIRROR_LAYOUT);
    const old = await createRxDatabase({ name: 'before-bills', storage: storage(), multiInstance: false });
    await old.addCollections({
      ...Object.fromEntries(before.map((c) => [c, { schema: schemas[c]! }])),
      refs: { schema: schemas.refs! },
      outbox: { schema: schemas.outbox! },
      meta: { schema: schemas.meta! },
    });
    const txn = makeTransaction();
    await putDocs(old.collections.transactions!, [toMirrored(txn)]);
    const entry = createOutboxEntry({ id: testUuid(9, 3), command: 'transaction.code', args: { transaction_id: txn.id, patch: { memo: 'x' } }, now: 1 });
    await old.collections.outbox!.insert(entry);
    await old.collections.meta!.insert({ id: CHECKPOINT_ID, value: { seq: 40, epoch: 'e', count: 1 } });
    await old.collections.meta!.insert({ id: 'layout', value: oldLayout });
    await old.close();

    db = await openMirrorDatabase({ name: 'before-bills', storage: storage(), multiInstance: false });
    expect(Object.keys(db.collections)).toContain('bills');
    expect((await db.meta.findOne('layout').exec())?.toJSON().value).toBe(MIRROR_LAYOUT);
    // The checkpoint is rewound: bills written before seq 40 were never pulled here.
    expect((await db.meta.findOne(CHECKPOINT_ID).exec())?.toJSON().value).toEqual({ seq: 0, epoch: null, count: 0 });
    expect((await getDocs(db.transactions, [txn.id])).size).toBe(0);
    expect((await db.outbox.findOne(entry.id).exec())?.toJSON().command).toBe('transaction.code');
    // A bill row (nested line items: their zod defaults are not in the RxDB schema) stores.
    const { deleted, ...bill } = makeBill(1);
    void deleted;
    await putDocs(db.bills, [bill]);
    expect((await getDocs(db.bills, [bill.id])).get(bill.id)).toMatchObject({ amount: 15_000, line_items: [{ description: 'Paper' }] });
  });
});
