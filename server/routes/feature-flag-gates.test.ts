import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type FixtureRole } from '../test-fixtures.ts';

/**
 * Issue 32: the access flags as the server reads them, each off then on through
 * PUT /v1/auth/feature_flags (the flags page's call): `auditor_role` on invites and role changes
 * (422 REQUEST_7001 on `role`, an Auditor keeps the role), `disable_invites_by_managers` on
 * managers' invites (403), `it_admin_can_be_assistant` on naming a delegate (422 on
 * `delegate_id`). The bulk bill limit is in bill-bulk.test.ts.
 */
const FLAGS = '/v1/auth/feature_flags';
const INVITE = '/v1/auth/businesses/users/invite';
const COPILOT = '/v1/auth/copilot';
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe.each(await testDatabases())('feature-flag gates on %s', (kind) => {
  const t = useTestApp(kind);

  const business = async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const tokens = {} as Record<FixtureRole, string>;
    for (const role of ['owner', 'admin', 'manager', 'employee'] as const) tokens[role] = await signIn(t.app, f.email(role));
    const call = (method: string, path: string, role: FixtureRole, body?: unknown) => request(t.app, method, path, { token: tokens[role], body });
    const flags = async (overrides: Record<string, unknown>) => expect((await call('PUT', FLAGS, 'admin', { overrides })).status).toBe(200);
    const invite = (role: string, by: FixtureRole = 'admin') => call('POST', INVITE, by, {
      email: `p-${randomUUID().slice(0, 8)}@${f.businessId.slice(0, 8)}.test`, first_name: 'Pat', last_name: 'Doe', role,
    });
    const changeRole = (userId: string, role: string) => call('PATCH', `/v1/auth/businesses/users/${userId}/role`, 'admin', { role });
    return { f, call, flags, invite, changeRole };
  };

  it('auditor_role: off, the Auditor role is neither invited nor assigned (an Auditor keeps it); on, both work', async () => {
    const { f, flags, invite, changeRole } = await business();
    const off = await invite('AUDITOR');
    expect(refusal(off)).toEqual([422, 'REQUEST_7001']);
    expect(off.body.error_v2.errors.role).toMatch(/Auditor role is turned off .*Settings → Feature flags/);
    const assign = await changeRole(f.users.employee, 'AUDITOR');
    expect(refusal(assign)).toEqual([422, 'REQUEST_7001']);
    expect(assign.body.error_v2.errors.role).toMatch(/Auditor role is turned off/);
    // Someone who holds the role keeps it: re-saving their role is no grant.
    expect((await changeRole(f.users.auditor, 'AUDITOR')).status).toBe(200);
    expect((await invite('IT_ADMIN')).status).toBe(201);

    await flags({ auditor_role: true });
    expect((await invite('AUDITOR')).status).toBe(201);
    const granted = await changeRole(f.users.employee, 'AUDITOR');
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body).toMatchObject({ role: 'AUDITOR' });
  });

  it('disable_invites_by_managers: on, a manager\'s invite is refused (403) and an admin\'s goes through; off again, managers invite', async () => {
    const { flags, invite } = await business();
    expect((await invite('BUSINESS_USER', 'manager')).status).toBe(201);
    await flags({ disable_invites_by_managers: true });
    const refused = await invite('BUSINESS_USER', 'manager');
    expect(refusal(refused)).toEqual([403, 'FORBIDDEN_7003']);
    expect(refused.body.error_v2.message).toBe('Invites by managers are turned off for this business.');
    expect((await invite('BUSINESS_USER', 'admin')).status).toBe(201);
    await flags({});
    expect((await invite('BUSINESS_USER', 'manager')).status).toBe(201);
  });

  it('it_admin_can_be_assistant: off, an IT admin cannot be named a delegate; on, they can; others are unaffected', async () => {
    const { f, call, flags, changeRole } = await business();
    await t.db.query(`UPDATE spend_users SET user_permissions = '["COPILOT"]'::jsonb WHERE id = ANY($1::uuid[])`, [[f.users.employee, f.users.manager]]);
    expect((await changeRole(f.users.employee, 'IT_ADMIN')).status).toBe(200);
    const period = { starts_on: today(), ends_on: inDays(5) };
    const off = await call('PUT', COPILOT, 'owner', { delegate_id: f.users.employee, ...period });
    expect(refusal(off)).toEqual([422, 'REQUEST_7001']);
    expect(off.body.error_v2.errors.delegate_id).toMatch(/IT admins cannot be approval delegates/);
    expect((await call('PUT', COPILOT, 'owner', { delegate_id: f.users.manager, ...period })).status).toBe(200);

    await flags({ it_admin_can_be_assistant: true });
    const on = await call('PUT', COPILOT, 'owner', { delegate_id: f.users.employee, ...period });
    expect(on.status, on.text).toBe(200);
  });
});
