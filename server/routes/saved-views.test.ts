import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { featureFlagsResponseSchema } from '../../schema/feature-flags.ts';
import { savedViewSchema } from '../../schema/saved-views.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 32: saved views (create/replace by the client's id, shared vs personal, owner-only edits,
 * admin deletes a shared view, another business's id 404, the state checked against the list)
 * and the feature-flag overrides (admins only, 1–500 for the valued flag, auditor_role gates the
 * Auditor role in invites). One business per file; each test names its own ids.
 */
const VIEWS = '/v1/auth/saved-views';
const FLAGS = '/v1/auth/feature_flags';

describe.each(await testDatabases())('saved views and feature flags on %s', async (kind) => {
  const t = useTestApp(kind);
  const roles: FixtureRole[] = ['owner', 'admin', 'bookkeeper', 'manager', 'employee'];
  const setup = (async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const other = await makeBusiness(t.db, { transactions: 0 });
    const tokens = {} as Record<FixtureRole, string>;
    for (const role of roles) tokens[role] = await signIn(t.app, f.email(role));
    const otherAdmin = await signIn(t.app, other.email('admin'));
    return { f, tokens, otherAdmin };
  });
  let ctx: Awaited<ReturnType<typeof setup>> | undefined;
  const fixture = async () => (ctx ??= await setup());
  const call = async (method: string, path: string, role: FixtureRole, body?: unknown) =>
    request(t.app, method, path, { token: (await fixture()).tokens[role], body });
  const view = (over: Record<string, unknown> = {}) => ({
    list: 'transactions', name: 'Missing receipts', state: { missing_receipt: 'true', sort: 'amount_desc' }, shared: false, ...over,
  });

  it('creates under the client id (201), replaces it (200), lists own first; a personal view is invisible to others', async () => {
    const id = randomUUID();
    const created = await call('PUT', `${VIEWS}/${id}`, 'admin', view());
    expect(created.status, created.text).toBe(201);
    expect(savedViewSchema.parse(created.body)).toMatchObject({ id, name: 'Missing receipts', shared: false, mine: true, can_delete: true });
    const again = await call('PUT', `${VIEWS}/${id}`, 'admin', view({ name: '  Big spend  ' }));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ id, name: 'Big spend' });

    const mine = await call('GET', `${VIEWS}?list=transactions`, 'admin');
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((v: { id: string }) => v.id)).toContain(id);
    const theirs = await call('GET', `${VIEWS}?list=transactions`, 'bookkeeper');
    expect(theirs.body.data.map((v: { id: string }) => v.id)).not.toContain(id);
    expect(refusal(await call('DELETE', `${VIEWS}/${id}`, 'bookkeeper'))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await call('PUT', `${VIEWS}/${id}`, 'bookkeeper', view()))).toEqual([404, 'REQUEST_7004']);
    expect(await t.db.query('SELECT 1 FROM saved_views WHERE id = $1', [id])).toHaveLength(1);
  });

  it('a shared view: others see it, only the owner edits, an admin (not another person) may delete it', async () => {
    const { f } = await fixture();
    const id = randomUUID();
    expect((await call('PUT', `${VIEWS}/${id}`, 'bookkeeper', view({ name: 'Team travel', shared: true }))).status).toBe(201);
    const seen = await call('GET', `${VIEWS}?list=transactions`, 'employee');
    const shared = seen.body.data.find((v: { id: string }) => v.id === id);
    expect(shared).toMatchObject({ mine: false, can_delete: false, owner_id: f.users.bookkeeper, shared: true });
    expect(shared.owner_name).toMatch(/^Bookkeeper /);
    expect(refusal(await call('PUT', `${VIEWS}/${id}`, 'employee', view({ shared: true })))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await call('DELETE', `${VIEWS}/${id}`, 'employee'))).toEqual([403, 'FORBIDDEN_7003']);
    const adminSees = await call('GET', `${VIEWS}?list=transactions`, 'admin');
    expect(adminSees.body.data.find((v: { id: string }) => v.id === id)).toMatchObject({ can_delete: true, mine: false });
    const deleted = await call('DELETE', `${VIEWS}/${id}`, 'admin');
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, id });
    expect(refusal(await call('DELETE', `${VIEWS}/${id}`, 'bookkeeper'))).toEqual([404, 'REQUEST_7004']);
  });

  it("another business's view id is 404 for every call, and its PUT does not take the id over", async () => {
    const { otherAdmin } = await fixture();
    const id = randomUUID();
    expect((await request(t.app, 'PUT', `${VIEWS}/${id}`, { token: otherAdmin, body: view({ shared: true }) })).status).toBe(201);
    expect(refusal(await call('PUT', `${VIEWS}/${id}`, 'admin', view()))).toEqual([404, 'REQUEST_7004']);
    expect(refusal(await call('DELETE', `${VIEWS}/${id}`, 'admin'))).toEqual([404, 'REQUEST_7004']);
    const listed = await call('GET', `${VIEWS}?list=transactions`, 'admin');
    expect(listed.body.data.map((v: { id: string }) => v.id)).not.toContain(id);
    const [row] = await t.db.query<{ name: string }>('SELECT name FROM saved_views WHERE id = $1', [id]);
    expect(row?.name).toBe('Missing receipts');
  });

  it("the state is checked against the list: unknown keys and bad values refused, the team list only for those who see it", async () => {
    const bad = await call('PUT', `${VIEWS}/${randomUUID()}`, 'admin', view({ state: { open: randomUUID(), sort: 'sideways' } }));
    expect(bad.status).toBe(422);
    expect(bad.body.error_v2.errors).toMatchObject({ 'state.open': 'state.open is not allowed', 'state.sort': 'state.sort must be a valid value' });
    const bills = await call('PUT', `${VIEWS}/${randomUUID()}`, 'admin', view({ list: 'bills', state: { status: 'ready', sort: 'amount_desc' } }));
    expect(bills.status, bills.text).toBe(201);
    expect(refusal(await call('PUT', `${VIEWS}/${randomUUID()}`, 'admin', view({ list: 'nope' })))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${VIEWS}/${randomUUID()}`, 'admin', view({ name: ' ' })))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${VIEWS}/${randomUUID()}`, 'admin', { ...view(), extra: 1 }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${VIEWS}/not-a-uuid`, 'admin', view()))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('GET', `${VIEWS}?list=ledger`, 'admin'))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', `${VIEWS}/${randomUUID()}`, 'employee', view({ list: 'team', state: { status: 'ACTIVE' } })))).toEqual([403, 'FORBIDDEN_7003']);
    const teamView = randomUUID();
    expect((await call('PUT', `${VIEWS}/${teamView}`, 'admin', view({ list: 'team', state: { role: 'MANAGER' }, shared: true }))).status).toBe(201);
    expect((await call('GET', `${VIEWS}?list=team`, 'employee')).body.data).toEqual([]);
    expect((await call('GET', `${VIEWS}?list=team`, 'manager')).body.data.map((v: { id: string }) => v.id)).toContain(teamView);
  });

  it('feature flags: admins replace the overrides; others 403; the valued flag 1–500', async () => {
    await fixture();
    expect(refusal(await call('PUT', FLAGS, 'manager', { overrides: { auditor_role: true } }))).toEqual([403, 'FORBIDDEN_7003']);
    expect(refusal(await call('PUT', FLAGS, 'admin', { overrides: { bulk_bill_creation_limit: 0 } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', FLAGS, 'admin', { overrides: { bulk_bill_creation_limit: 501 } }))).toEqual([422, 'REQUEST_7001']);
    expect(refusal(await call('PUT', FLAGS, 'admin', { overrides: { nope: true } }))).toEqual([422, 'REQUEST_7001']);

    const on = await call('PUT', FLAGS, 'owner', { overrides: { auditor_role: true, bulk_bill_creation_limit: 120 } });
    expect(on.status, on.text).toBe(200);
    expect(featureFlagsResponseSchema.parse(on.body).flags).toMatchObject({ auditor_role: true, bulk_bill_creation_limit: 120, security_login_history: true });
    expect((await call('GET', FLAGS, 'employee')).body.flags).toMatchObject({ auditor_role: true, bulk_bill_creation_limit: 120 });

    const back = await call('PUT', FLAGS, 'admin', { overrides: {} });
    expect(back.body.flags).toMatchObject({ auditor_role: false, bulk_bill_creation_limit: 50 });
  });
});
