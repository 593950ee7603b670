import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn, type FixtureRole } from '../test-fixtures.ts';
import type { Queryable } from '../db/db.ts';

const seqOf = async (db: Queryable, businessId: string) =>
  Number((await db.query<{ s: number }>('SELECT change_seq AS s FROM businesses WHERE id = $1', [businessId]))[0]!.s);

describe.each(await testDatabases())('business administration on %s', (kind) => {
  const t = useTestApp(kind);

  describe.each([
    ['departments', 'department_id', 'department'],
    ['locations', 'location_id', 'location'],
  ] as const)('%s', (collection, column, label) => {
    const base = `/v1/auth/businesses/${collection}`;

    it('creates, renames and deletes (tombstone) with a new change seq for every write, seen by the feed', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('admin'));
      const start = await seqOf(t.db, f.businessId);
      const created = await request(t.app, 'POST', base, { token, body: { name: 'Research' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Research', deleted: false, owner_ids: [], change_seq: start + 1 });
      const id = created.body.id as string;
      const renamed = await request(t.app, 'PATCH', `${base}/${id}`, { token, body: { name: 'R&D' } });
      expect(renamed.body).toMatchObject({ name: 'R&D', change_seq: start + 2 });
      const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${start}`, { token });
      expect(feed.body.changes).toEqual([expect.objectContaining({ collection, id, seq: start + 2, deleted: false })]);
      const removed = await request(t.app, 'DELETE', `${base}/${id}`, { token });
      expect(removed.body).toMatchObject({ deleted: true, change_seq: start + 3 });
      const after = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${start + 2}`, { token });
      expect(after.body.changes).toEqual([expect.objectContaining({ collection, id, deleted: true, doc: null })]);
      const list = await request(t.app, 'GET', `${base}?page_size=100`, { token });
      expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(id);
      expect((await request(t.app, 'PATCH', `${base}/${id}`, { token, body: { name: 'Again' } })).status).toBe(404);
    });

    it('refuses a duplicate name (case-insensitive) with a clear 422, but frees a deleted name', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('owner'));
      const first = await request(t.app, 'POST', base, { token, body: { name: 'Ops' } });
      const dup = await request(t.app, 'POST', base, { token, body: { name: '  oPS ' } });
      expect(dup.status).toBe(422);
      expect(dup.body.error_v2).toMatchObject({ error_code: 'REQUEST_7001', message: `A ${label} named 'oPS' already exists.` });
      const other = await request(t.app, 'POST', base, { token, body: { name: 'Other' } });
      expect((await request(t.app, 'PATCH', `${base}/${other.body.id}`, { token, body: { name: 'OPS' } })).status).toBe(422);
      expect((await request(t.app, 'PATCH', `${base}/${first.body.id}`, { token, body: { name: 'OPS' } })).status).toBe(200);
      await request(t.app, 'DELETE', `${base}/${first.body.id}`, { token });
      expect((await request(t.app, 'POST', base, { token, body: { name: 'ops' } })).status).toBe(201);
    });

    it('deleting one in use clears it from users (each with its own seq) and keeps transaction coding as history', async () => {
      const f = await makeBusiness(t.db, { transactions: 6 });
      const token = await signIn(t.app, f.email('admin'));
      const target = collection === 'departments' ? f.departments[0]! : f.locations[0]!;
      await t.db.query(`UPDATE spend_users SET ${column} = $2 WHERE business_id = $1`, [f.businessId, target]);
      await t.db.query(`UPDATE transactions SET ${column} = $2 WHERE business_id = $1`, [f.businessId, target]);
      const before = await seqOf(t.db, f.businessId);
      expect((await request(t.app, 'DELETE', `${base}/${target}`, { token })).status).toBe(200);
      const users = await t.db.query<{ v: string | null; change_seq: number }>(`SELECT ${column} AS v, change_seq FROM spend_users WHERE business_id = $1`, [f.businessId]);
      expect(users.every((u) => u.v === null)).toBe(true);
      const seqs = users.map((u) => Number(u.change_seq));
      expect(new Set(seqs).size).toBe(users.length);
      expect(Math.min(...seqs)).toBeGreaterThan(before);
      expect(await seqOf(t.db, f.businessId)).toBe(before + 1 + users.length);
      const tx = await t.db.query<{ v: string }>(`SELECT ${column} AS v FROM transactions WHERE business_id = $1`, [f.businessId]);
      expect(tx.every((r) => r.v === target)).toBe(true);
      // New coding refuses the tombstone.
      const patch = await request(t.app, 'PATCH', `/v1/auth/transactions/${f.allTransactions[0]}`, { token, body: { [column]: target } });
      expect(patch.status).toBe(422);
    });

    it('sets owners from users of the same business only', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const o = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email('admin'));
      const id = collection === 'departments' ? f.departments[1]! : f.locations[1]!;
      const set = await request(t.app, 'PUT', `${base}/${id}/owners`, { token, body: { user_ids: [f.users.manager, f.users.manager, f.users.admin] } });
      expect(set.status).toBe(200);
      expect([...set.body.owner_ids].sort()).toEqual([f.users.manager, f.users.admin].sort());
      const bad = await request(t.app, 'PUT', `${base}/${id}/owners`, { token, body: { user_ids: [o.users.manager] } });
      expect(bad).toMatchObject({ status: 422, body: { error_v2: { errors: { user_ids: 'user_ids must be users of this business' } } } });
      const foreign = await request(t.app, 'PUT', `${base}/${o.departments[0]}/owners`, { token, body: { user_ids: [] } });
      expect(foreign.status).toBe(404);
    });

    it.each(['bookkeeper', 'manager', 'employee', 'auditor'] as FixtureRole[])('refuses %s with 403 FORBIDDEN_7003', async (role) => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const token = await signIn(t.app, f.email(role));
      const id = collection === 'departments' ? f.departments[0]! : f.locations[0]!;
      const before = await seqOf(t.db, f.businessId);
      for (const [method, path, body] of [
        ['POST', base, { name: 'X' }], ['PATCH', `${base}/${id}`, { name: 'X' }], ['DELETE', `${base}/${id}`, undefined],
        ['PUT', `${base}/${id}/owners`, { user_ids: [] }],
      ] as const) {
        const res = await request(t.app, method, path, { token, body });
        expect(res).toMatchObject({ status: 403, body: { error_v2: { error_code: 'FORBIDDEN_7003' } } });
      }
      expect(await seqOf(t.db, f.businessId)).toBe(before);
    });
  });

  it('manages business entities: create, list, update, delete (refused while users belong to it)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const o = await makeBusiness(t.db, { transactions: 0 });
    const token = await signIn(t.app, f.email('admin'));
    const created = await request(t.app, 'POST', '/v1/auth/businesses/entities', { token, body: { name: 'Acme GmbH', country: 'DE', currency: 'EUR' } });
    expect(created).toMatchObject({ status: 201, body: { name: 'Acme GmbH', country: 'DE', currency: 'EUR', business_id: f.businessId } });
    const id = created.body.id as string;
    expect((await request(t.app, 'POST', '/v1/auth/businesses/entities', { token, body: { name: 'acme gmbh', country: 'DE', currency: 'EUR' } })).status).toBe(422);
    expect((await request(t.app, 'POST', '/v1/auth/businesses/entities', { token, body: { name: 'Bad', country: 'de', currency: 'EUR' } })).status).toBe(422);
    const updated = await request(t.app, 'PATCH', `/v1/auth/businesses/entities/${id}`, { token, body: { currency: 'CHF', country: 'CH' } });
    expect(updated.body).toMatchObject({ name: 'Acme GmbH', currency: 'CHF', country: 'CH' });
    const employee = await signIn(t.app, f.email('employee'));
    const list = await request(t.app, 'GET', '/v1/auth/businesses/entities', { token: employee });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await request(t.app, 'PATCH', `/v1/auth/businesses/entities/${id}`, { token: employee, body: { name: 'X' } })).status).toBe(403);
    const outsider = await signIn(t.app, o.email('owner'));
    expect((await request(t.app, 'PATCH', `/v1/auth/businesses/entities/${id}`, { token: outsider, body: { name: 'X' } })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/entities/${id}`, { token: outsider })).status).toBe(404);
    expect((await request(t.app, 'GET', '/v1/auth/businesses/entities', { token: outsider })).body.data).toEqual([]);

    await t.db.query('UPDATE spend_users SET entity_id = $2 WHERE id = $1', [f.users.employee, id]);
    const inUse = await request(t.app, 'DELETE', `/v1/auth/businesses/entities/${id}`, { token });
    expect(inUse).toMatchObject({ status: 422, body: { error_v2: { message: 'This business entity still has users. Move them to another entity first.' } } });
    await t.db.query('UPDATE spend_users SET entity_id = NULL WHERE id = $1', [f.users.employee]);
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/entities/${id}`, { token })).body).toEqual({ ok: true });
    expect((await request(t.app, 'GET', '/v1/auth/businesses/entities', { token })).body.data).toEqual([]);
  });
});
