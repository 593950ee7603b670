import { describe, expect, it } from 'vitest';
import { INVITE_TTL_MS } from '../domain/admin-users.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { INVITE_LOOKUP_LIMIT } from './admin-users.ts';
import { captureInviteMails } from './identity-test-kit.ts';

const PASSWORD = 'a-long-new-password';

describe.each(await testDatabases())('admin.users.get / update and invites.lookup on %s', (kind) => {
  const clock = { now: Date.UTC(2026, 5, 1) };
  const t = useTestApp(kind, { now: () => clock.now });
  const { tokenFor } = captureInviteMails();
  const patch = (token: string, id: string, body: Record<string, unknown>) =>
    request(t.app, 'PATCH', `/v1/auth/businesses/users/${id}`, { token, body });

  it('moves a person (manager, department, location, entity), takes a seq the feed carries, and clears with null', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    const entity = await request(t.app, 'POST', '/v1/auth/businesses/entities', { token: owner, body: { name: 'UK Ltd', country: 'GB', currency: 'GBP' } });
    const before = await request(t.app, 'GET', `/v1/auth/businesses/users/${f.users.employee}`, { token: owner });
    expect(before.status).toBe(200);
    const body = { manager_id: f.users.admin, department_id: f.departments[1], location_id: f.locations[0], entity_id: entity.body.id };
    const res = await patch(owner, f.users.employee, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.users.employee, ...body });
    expect(res.body.change_seq).toBeGreaterThan(before.body.change_seq);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${res.body.change_seq - 1}`, { token: owner });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'users', id: f.users.employee })]);
    expect((await request(t.app, 'GET', `/v1/auth/businesses/users/${f.users.employee}`, { token: owner })).body.entity_id).toBe(entity.body.id);
    const cleared = await patch(owner, f.users.employee, { department_id: null, entity_id: null });
    expect(cleared.body).toMatchObject({ department_id: null, entity_id: null, manager_id: f.users.admin, location_id: f.locations[0] });
    expect((await patch(owner, f.users.employee, {})).status).toBe(422);
  });

  it('refuses a manager who is the person, inactive, or below them (no loops); other businesses’ ids are 404; admins only', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const o = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    // employee → manager; then making the employee the manager's manager closes a loop.
    expect((await patch(admin, f.users.employee, { manager_id: f.users.manager })).status).toBe(200);
    expect((await patch(admin, f.users.teammate, { manager_id: f.users.employee })).status).toBe(200);
    const loop = await patch(admin, f.users.manager, { manager_id: f.users.teammate });
    expect(loop).toMatchObject({ status: 422, body: { error_v2: { errors: { manager_id: expect.stringContaining('loop') } } } });
    expect((await patch(admin, f.users.manager, { manager_id: f.users.manager })).body.error_v2.message).toBe('A person cannot be their own manager.');
    await t.db.query(`UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1`, [f.users.auditor]);
    expect((await patch(admin, f.users.employee, { manager_id: f.users.auditor })).body.error_v2.message).toBe('The manager must be an active user.');
    for (const body of [{ manager_id: o.users.manager }, { department_id: o.departments[0] }, { location_id: o.locations[0] }]) {
      expect(await patch(admin, f.users.employee, body)).toMatchObject({ status: 404, body: { error_v2: { error_code: 'REQUEST_7004' } } });
    }
    expect((await patch(admin, o.users.employee, { department_id: f.departments[0] })).status).toBe(404);
    expect((await request(t.app, 'GET', `/v1/auth/businesses/users/${o.users.employee}`, { token: admin })).status).toBe(404);
    const manager = await signIn(t.app, f.email('manager'));
    expect(await patch(manager, f.users.employee, { department_id: f.departments[0] })).toMatchObject({ status: 403, body: { error_v2: { error_code: 'FORBIDDEN_7003' } } });
  });

  it('looks an invite up (who invited whom, where, pending → accepted; expired and superseded say expired; unknown 404)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const email = `lookup@${f.businessId.slice(0, 8)}.invite.test`;
    const made = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', { token: admin, body: { email, first_name: 'Lou', last_name: 'Kup', role: 'BUSINESS_USER' } });
    expect(made.status).toBe(201);
    const token = tokenFor(email);
    const lookup = (tk: string) => request(t.app, 'GET', `/v1/public/invites/${tk}`);
    const [biz] = await t.db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [f.businessId]);
    const [inviter] = await t.db.query<{ first_name: string; last_name: string }>('SELECT first_name, last_name FROM spend_users WHERE id = $1', [f.users.admin]);
    expect((await lookup(token)).body).toEqual({
      email, first_name: 'Lou', business_name: biz!.name, inviter_name: `${inviter!.first_name} ${inviter!.last_name}`,
      status: 'pending', existing_account: false, expires_at: new Date(clock.now + INVITE_TTL_MS).toISOString(),
    });
    expect((await lookup('x'.repeat(43))).status).toBe(404);
    expect((await lookup('bad token!')).status).toBe(422);
    // A resend supersedes the first token; past the expiry the newest says expired too.
    await request(t.app, 'POST', `/v1/auth/businesses/users/${made.body.user.id}/resend-invite`, { token: admin, body: {} });
    expect((await lookup(token)).body.status).toBe('expired');
    const second = tokenFor(email);
    clock.now += INVITE_TTL_MS + 1;
    expect((await lookup(second)).body.status).toBe('expired');
    clock.now -= INVITE_TTL_MS + 1;
    expect((await request(t.app, 'POST', `/v1/public/invites/${second}/accept`, { body: { password: PASSWORD } })).status).toBe(200);
    expect((await lookup(second)).body.status).toBe('accepted');
    // An identity that already exists types its own password.
    const o = await makeBusiness(t.db, { transactions: 0 });
    await request(t.app, 'POST', '/v1/auth/businesses/users/invite', { token: admin, body: { email: o.email('employee'), first_name: 'Ex', last_name: 'Isting', role: 'BUSINESS_USER' } });
    expect((await lookup(tokenFor(o.email('employee')))).body.existing_account).toBe(true);
  });

  it('rate-limits the public lookup per client address (AUTH_7029)', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const prev = process.env.LEDGERLINE_TRUST_PROXY;
    process.env.LEDGERLINE_TRUST_PROXY = '1';
    try {
      let last = 0;
      for (let i = 0; i <= INVITE_LOOKUP_LIMIT.max; i += 1) last = (await request(t.app, 'GET', `/v1/public/invites/${'y'.repeat(43)}`, { headers })).status;
      expect(last).toBe(429);
    } finally {
      if (prev === undefined) delete process.env.LEDGERLINE_TRUST_PROXY;
      else process.env.LEDGERLINE_TRUST_PROXY = prev;
    }
  });
});
