import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import type { Change, MirroredCollection } from '../schema/sync-feed.ts';
import { scanDocs } from './bulk-write.ts';
import { refKey, mirrorStorage } from './db.ts';
import { MirrorRuntime } from './mirror-runtime.ts';
import {
  makeBusinessEntity, makeCard, makeDepartment, makeGlAccount, makeLocation, makeTrackingCategory, makeTransaction, makeUser,
} from './test-fixtures.ts';

const runtimes: MirrorRuntime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.close();
});

const put = (collection: MirroredCollection, doc: { id: string }, seq: number): Change => ({ collection, seq, id: doc.id, deleted: false, doc });

async function open(idb: IDBFactory) {
  const rt = await MirrorRuntime.open({ name: 'refs-test', storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }), multiInstance: false, defer: (fn) => fn() });
  runtimes.push(rt);
  await rt.ready;
  return rt;
}

const search = async (rt: MirrorRuntime, q: string) => (await rt.queryTransactions({ filter: { q }, sort: 'occurred_desc', offset: 0, limit: 10 })).total;

describe('reference rows in the shared refs collection', () => {
  it('are written from the feed, deleted, and reloaded from refs into the reference cache', async () => {
    const idb = new IDBFactory();
    const rt = await open(idb);
    const user = makeUser(1, 'Ada', 'Lovelace');
    const dept = makeDepartment(1, 'Engineering');
    // Another kind with the same id: keys are per kind, so neither overwrites the other.
    const twin = { ...makeLocation(1, 'Berlin'), id: dept.id };
    const gl = makeGlAccount(1, 'Meals');
    const category = makeTrackingCategory(1, 'Project', ['Apollo']);
    const card = makeCard(1, 1);
    const entity = makeBusinessEntity(1, 'Acme GmbH', { country: 'DE', currency: 'EUR', owner_ids: [user.id] });
    const txn = makeTransaction({ user_id: user.id, department_id: dept.id, location_id: dept.id, gl_account_id: gl.id });
    await rt.mirror.applyChanges(
      [put('users', user, 1), put('departments', dept, 2), put('locations', twin, 3), put('gl_accounts', gl, 4), put('tracking_categories', category, 5), put('cards', card, 6), put('transactions', txn, 7), put('entities', entity, 8)],
      { seq: 8, epoch: 'e' },
    );

    const stored: { id: string; kind: string; row_id: string }[] = [];
    for await (const page of scanDocs(rt.db.refs, 100)) stored.push(...page);
    expect(stored.map((d) => d.id).sort()).toEqual(
      [refKey('users', user.id), refKey('departments', dept.id), refKey('locations', dept.id), refKey('gl_accounts', gl.id), refKey('tracking_categories', category.id), refKey('entities', entity.id)].sort(),
    );
    expect(stored.find((d) => d.kind === 'locations')).toMatchObject({ row_id: dept.id, row: { name: 'Berlin' } });
    // Cards are a queried collection (issue 10): a collection of their own, served by their engine, not the reference cache.
    expect((await scanDocs(rt.db.cards, 10).next()).value).toHaveLength(1);
    expect(rt.engines.cards.get(card.id)).toMatchObject({ id: card.id, status: 'ACTIVE' });

    const expected = { users: [user], departments: [dept], locations: [twin], gl_accounts: [gl], tracking_categories: [category], reimbursement_rates: [], vendors: [], provisional_bills: [], saved_reports: [], dashboards: [], mapping_rules: [], entities: [entity], purchase_orders: [], spend_allocations: [], expense_policies: [], wallet_accounts: [], wallet_transfers: [], bank_accounts: [] };
    expect(rt.refs.snapshot()).toEqual(expected);
    expect(await search(rt, 'engineering lovelace berlin meals')).toBe(1);

    await rt.mirror.applyChanges([{ collection: 'departments', seq: 9, id: dept.id, deleted: true, doc: null }], { seq: 9, epoch: 'e' });
    expect(rt.refs.snapshot()).toEqual({ ...expected, departments: [] });
    expect(await search(rt, 'engineering')).toBe(0);
    expect(await search(rt, 'berlin')).toBe(1);
    await rt.close();

    // A cold start reads the cache back from refs, and resumes from the checkpoint.
    const again = await open(idb);
    expect(again.refs.snapshot()).toEqual({ ...expected, departments: [] });
    expect(await again.mirror.getCheckpoint()).toEqual({ seq: 9, epoch: 'e' });
    expect(await search(again, 'lovelace berlin')).toBe(1);

    // A reset (new epoch) empties refs like every other mirrored collection.
    await again.mirror.reset();
    expect((await scanDocs(again.db.refs, 10).next()).done).toBe(true);
    expect(again.refs.snapshot()).toEqual({ users: [], departments: [], locations: [], gl_accounts: [], tracking_categories: [], reimbursement_rates: [], vendors: [], provisional_bills: [], saved_reports: [], dashboards: [], mapping_rules: [], entities: [], purchase_orders: [], spend_allocations: [], expense_policies: [], wallet_accounts: [], wallet_transfers: [], bank_accounts: [] });
  });
});
