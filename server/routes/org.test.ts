import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import type { Queryable } from '../db/db.ts';

const seqOf = async (db: Queryable, businessId: string) =>
  Number((await db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [businessId]))[0]!.s);
const ENTITIES = '/v1/auth/businesses/entities';

describe.each(await testDatabases())('business entities (issue 14) on %s', (kind) => {
  const t = useTestApp(kind);

  it('mirrors entities: every write takes a change seq, the feed carries the row and its tombstone', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const employee = await signIn(t.app, f.email('employee'));
    const start = await seqOf(t.db, f.businessId);
    const created = await request(t.app, 'POST', ENTITIES, { token, body: { name: 'Acme GmbH', country: 'DE', currency: 'EUR' } });
    expect(created).toMatchObject({ status: 201, body: { owner_ids: [] } });
    const id = created.body.id as string;
    expect(await seqOf(t.db, f.businessId)).toBe(start + 1);
    await request(t.app, 'PATCH', `${ENTITIES}/${id}`, { token, body: { name: 'Acme Deutschland GmbH' } });
    // Every member mirrors entities (a bill names its entity on any device).
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${start}`, { token: employee });
    expect(feed.body.changes).toEqual([
      expect.objectContaining({
        collection: 'entities', id, seq: start + 2, deleted: false,
        doc: expect.objectContaining({ name: 'Acme Deutschland GmbH', country: 'DE', currency: 'EUR', owner_ids: [], change_seq: start + 2 }),
      }),
    ]);
    expect((await request(t.app, 'DELETE', `${ENTITIES}/${id}`, { token })).body).toEqual({ ok: true });
    const after = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${start + 2}`, { token: employee });
    expect(after.body.changes).toEqual([expect.objectContaining({ collection: 'entities', id, seq: start + 3, deleted: true, doc: null })]);
    // A refused write takes no seq.
    expect((await request(t.app, 'PATCH', `${ENTITIES}/${id}`, { token, body: { name: 'Gone' } })).status).toBe(404);
    expect(await seqOf(t.db, f.businessId)).toBe(start + 3);
  });

  it('sets owners whole (de-duplicated), refuses users of another business, admins only, another business 404', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const o = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('owner'));
    const { body: entity } = await request(t.app, 'POST', ENTITIES, { token, body: { name: 'Ledgerline Ltd', country: 'GB', currency: 'GBP' } });
    const owners = `${ENTITIES}/${entity.id}/owners`;
    const before = await seqOf(t.db, f.businessId);

    const set = await request(t.app, 'PUT', owners, { token, body: { user_ids: [f.users.admin, f.users.employee, f.users.admin] } });
    expect(set).toMatchObject({ status: 200, body: { id: entity.id, owner_ids: [f.users.admin, f.users.employee] } });
    expect(await seqOf(t.db, f.businessId)).toBe(before + 1);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${before}`, { token });
    expect(feed.body.changes).toEqual([
      expect.objectContaining({ collection: 'entities', id: entity.id, doc: expect.objectContaining({ owner_ids: [f.users.admin, f.users.employee] }) }),
    ]);
    const list = await request(t.app, 'GET', ENTITIES, { token });
    expect(list.body.data[0].owner_ids).toEqual([f.users.admin, f.users.employee]);

    const foreign = await request(t.app, 'PUT', owners, { token, body: { user_ids: [o.users.admin] } });
    expect(foreign).toMatchObject({ status: 422, body: { error_v2: { error_code: 'REQUEST_7001', errors: { user_ids: 'user_ids must be users of this business' } } } });
    expect((await request(t.app, 'PUT', owners, { token, body: { user_ids: ['nope'] } })).status).toBe(422);
    const employee = await signIn(t.app, f.email('employee'));
    expect((await request(t.app, 'PUT', owners, { token: employee, body: { user_ids: [] } })).status).toBe(403);
    const outsider = await signIn(t.app, o.email('owner'));
    expect((await request(t.app, 'PUT', owners, { token: outsider, body: { user_ids: [o.users.admin] } })).status).toBe(404);

    const cleared = await request(t.app, 'PUT', owners, { token, body: { user_ids: [] } });
    expect(cleared.body.owner_ids).toEqual([]);
    await request(t.app, 'DELETE', `${ENTITIES}/${entity.id}`, { token });
    expect((await request(t.app, 'PUT', owners, { token, body: { user_ids: [] } })).status).toBe(404);
  });

  it('sends departments\' and locations\' owners in the feed', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const start = await seqOf(t.db, f.businessId);
    await request(t.app, 'PUT', `/v1/auth/businesses/departments/${f.departments[0]}/owners`, { token, body: { user_ids: [f.users.manager] } });
    await request(t.app, 'PUT', `/v1/auth/businesses/locations/${f.locations[0]}/owners`, { token, body: { user_ids: [f.users.admin] } });
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${start}`, { token });
    expect(feed.body.changes).toEqual([
      expect.objectContaining({ collection: 'departments', doc: expect.objectContaining({ owner_ids: [f.users.manager] }) }),
      expect.objectContaining({ collection: 'locations', doc: expect.objectContaining({ owner_ids: [f.users.admin] }) }),
    ]);
  });
});
