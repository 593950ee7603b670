import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';

/** Issue 29: `DELETE /v1/auth/bill-pay/ap-clerks/{user}` takes AP clerk access away. */
describe.each(await testDatabases())('removing AP clerk access on %s', (kind) => {
  const t = useTestApp(kind);
  const path = (id: string) => `/v1/auth/bill-pay/ap-clerks/${id}`;
  const grant = (id: string, permissions: string[]) =>
    t.db.query(`UPDATE spend_users SET user_permissions = $2::jsonb WHERE id = $1`, [id, JSON.stringify(permissions)]);
  const permissionsOf = async (id: string) =>
    (await t.db.query<{ user_permissions: string[] }>('SELECT user_permissions FROM spend_users WHERE id = $1', [id]))[0]!.user_permissions;
  const bills = (token: string) => request(t.app, 'GET', '/v1/auth/bill-pay', { token });

  it('drops AP_ACCESS only, ends the clerk’s bill pay, reaches the feed, and a second removal is 404', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await grant(f.users.employee, ['AP_ACCESS', 'COPILOT']);
    const admin = await signIn(t.app, f.email('admin'));
    const clerk = await signIn(t.app, f.email('employee'));
    expect((await bills(clerk)).status).toBe(200);
    const shown = await request(t.app, 'GET', `/v1/auth/businesses/users/${f.users.employee}`, { token: admin });
    expect(shown.body.user_permissions).toEqual(['AP_ACCESS', 'COPILOT']);

    const res = await request(t.app, 'DELETE', path(f.users.employee), { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.users.employee, user_permissions: ['COPILOT'] });
    expect(await permissionsOf(f.users.employee)).toEqual(['COPILOT']);
    expect(refusal(await bills(clerk))).toEqual([403, 'FORBIDDEN_7003']);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${res.body.change_seq - 1}`, { token: admin });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'users', id: f.users.employee })]);

    const again = await request(t.app, 'DELETE', path(f.users.employee), { token: admin });
    expect(again).toMatchObject({ status: 404, body: { error_v2: { error_code: 'REQUEST_7004', message: 'This person does not have AP clerk access.' } } });
  });

  it('is for admins; only an owner takes an owner’s access', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await grant(f.users.employee, ['AP_ACCESS']);
    await grant(f.users.owner, ['AP_ACCESS']);
    for (const role of ['manager', 'bookkeeper', 'employee'] as const) {
      expect(refusal(await request(t.app, 'DELETE', path(f.users.employee), { token: await signIn(t.app, f.email(role)) }))).toEqual([403, 'FORBIDDEN_7003']);
    }
    const admin = await signIn(t.app, f.email('admin'));
    const ownerByAdmin = await request(t.app, 'DELETE', path(f.users.owner), { token: admin });
    expect(ownerByAdmin).toMatchObject({ status: 403, body: { error_v2: { message: 'Only an owner can change an owner’s access.' } } });
    expect(await permissionsOf(f.users.owner)).toEqual(['AP_ACCESS']);
    const owner = await signIn(t.app, f.email('owner'));
    expect((await request(t.app, 'DELETE', path(f.users.owner), { token: owner })).body.user_permissions).toEqual([]);
    expect(await permissionsOf(f.users.employee)).toEqual(['AP_ACCESS']);
  });

  it('answers 404 for another business’s clerk and unknown people, 422 for a malformed id', async () => {
    const a: Fixture = await makeBusiness(t.db, { transactions: 0 });
    const b: Fixture = await makeBusiness(t.db, { transactions: 0 });
    await grant(b.users.employee, ['AP_ACCESS']);
    const admin = await signIn(t.app, a.email('admin'));
    expect(refusal(await request(t.app, 'DELETE', path(b.users.employee), { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(await permissionsOf(b.users.employee)).toEqual(['AP_ACCESS']);
    expect(refusal(await request(t.app, 'DELETE', path('00000000-0000-4000-8000-000000000000'), { token: admin }))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await request(t.app, 'DELETE', path('not-a-uuid'), { token: admin }))).toEqual([422, 'REQUEST_7001']);
  });
});
