import { describe, expect, it } from 'vitest';
import { isInvitePending } from '../../schema/identity-rules.ts';
import { expireInvites, INVITE_TTL_MS, signInBlock, CARD_ISSUING_MESSAGE, SUSPENDED_MESSAGE } from '../domain/admin-users.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { totpCode } from '../auth/totp.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn, type Fixture } from '../test-fixtures.ts';
import { captureInviteMails, claimsOf, enrolTotp, STEP_MS } from './identity-test-kit.ts';

describe('signInBlock', () => {
  it.each([
    [{ status: 'ACTIVE' }, null],
    [{ status: 'SUSPENDED' }, { code: 'AUTH_7022', message: SUSPENDED_MESSAGE }],
    [{ status: 'INVITED' }, { code: 'AUTH_7026' }],
    [{ status: 'INVITE_EXPIRED' }, { code: 'AUTH_7027' }],
    [{ status: 'ACTIVE', deleted: true }, { code: '4014' }],
  ])('%j → %j', (user, expected) => expect(signInBlock(user)).toEqual(expected));
});

const PASSWORD = 'a-long-new-password';

describe.each(await testDatabases())('user administration on %s', (kind) => {
  const clock = { now: Date.UTC(2026, 5, 1) };
  const t = useTestApp(kind, { now: () => clock.now });
  const { tokenFor } = captureInviteMails();
  const invite = (token: string, body: Record<string, unknown>) => request(t.app, 'POST', '/v1/auth/businesses/users/invite', { token, body });
  const person = (f: Fixture, name: string) => ({ email: `${name}@${f.businessId.slice(0, 8)}.invite.test`, first_name: 'New', last_name: name, role: 'BUSINESS_USER' });
  const userRow = async (id: string) =>
    (await t.db.query<{ status: string; role: string; change_seq: number; deleted: boolean; has_accepted_cardholder_agreement: boolean }>(
      'SELECT status, role, change_seq, deleted, has_accepted_cardholder_agreement FROM spend_users WHERE id = $1', [id]))[0]!;

  it('invites (INVITED, pending agreement, feed), mails a token, and acceptance activates and signs in', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const p = { ...person(f, 'nora'), department_id: f.departments[1] };
    const res = await invite(admin, p);
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email: p.email, status: 'INVITED', department_id: f.departments[1], manager_id: null });
    expect(res.body.invite.expires_at).toBe(new Date(clock.now + INVITE_TTL_MS).toISOString());
    const id = res.body.user.id as string;
    expect(isInvitePending(await userRow(id))).toBe(true);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${res.body.user.change_seq - 1}`, { token: admin });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'users', id })]);
    expect((await invite(admin, { ...p, email: p.email.toUpperCase() })).status).toBe(422);

    const token = tokenFor(p.email);
    expect((await request(t.app, 'POST', `/v1/public/invites/${token}/accept`, { body: { password: 'short' } })).status).toBe(422);
    const accepted = await request(t.app, 'POST', `/v1/public/invites/${token}/accept`, { body: { password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.mfa_required).toBe(false);
    const me = await request(t.app, 'GET', '/v1/auth/identity', { token: accepted.body.id_token });
    expect(me.body.user).toMatchObject({ id, status: 'ACTIVE', has_accepted_cardholder_agreement: true });
    expect(isInvitePending(await userRow(id))).toBe(false);
    const again = await request(t.app, 'POST', `/v1/public/invites/${token}/accept`, { body: { password: PASSWORD } });
    expect(again).toMatchObject({ status: 422, body: { error_v2: { message: 'This invite has already been accepted.' } } });
    await signIn(t.app, p.email, PASSWORD);
  });

  it('links an existing identity without changing its password (the typed password must match)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const o = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const email = o.email('employee');
    expect((await invite(admin, { ...person(f, 'x'), email })).status).toBe(201);
    const wrong = await request(t.app, 'POST', `/v1/public/invites/${tokenFor(email)}/accept`, { body: { password: PASSWORD } });
    expect(wrong.status).toBe(401);
    const right = await request(t.app, 'POST', `/v1/public/invites/${tokenFor(email)}/accept`, { body: { password: 'fixture-password-1' } });
    expect(right.status).toBe(200);
  });

  it('lets managers invite their own employees unless disable_invites_by_managers; others are refused', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const manager = await signIn(t.app, f.email('manager'));
    const made = await invite(manager, person(f, 'rep'));
    expect(made.status).toBe(201);
    expect(made.body.user.manager_id).toBe(f.users.manager);
    const refusals: [string, Record<string, unknown>, string][] = [
      [manager, { ...person(f, 'a1'), role: 'BUSINESS_ADMIN' }, 'Managers can invite employees only.'],
      [manager, { ...person(f, 'a2'), manager_id: f.users.admin }, 'Managers can invite only their own reports.'],
      [await signIn(t.app, f.email('employee')), person(f, 'a3'), 'Only administrators and managers can invite users.'],
      [await signIn(t.app, f.email('admin')), { ...person(f, 'a4'), role: 'BUSINESS_OWNER' }, 'Only an owner can invite an owner.'],
    ];
    for (const [token, body, message] of refusals) {
      expect(await invite(token, body)).toMatchObject({ status: 403, body: { error_v2: { error_code: 'FORBIDDEN_7003', message } } });
    }
    const resend = (token: string, id: string) => request(t.app, 'POST', `/v1/auth/businesses/users/${id}/resend-invite`, { token, body: {} });
    expect((await resend(manager, made.body.user.id)).status).toBe(200);
    const byAdmin = await invite(await signIn(t.app, f.email('admin')), person(f, 'adm'));
    expect((await resend(manager, byAdmin.body.user.id)).status).toBe(403);
    await t.db.query(`INSERT INTO business_feature_flags (business_id, overrides) VALUES ($1, '{"disable_invites_by_managers": true}')`, [f.businessId]);
    expect((await resend(manager, made.body.user.id)).status).toBe(403);
    expect(await invite(manager, person(f, 'rep2'))).toMatchObject({ status: 403, body: { error_v2: { message: 'Invites by managers are turned off for this business.' } } });
    expect((await invite(await signIn(t.app, f.email('admin')), person(f, 'rep3'))).status).toBe(201);
  });

  it("requires an entity when the business issues cards per entity, and refuses other businesses' references", async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const o = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    await t.db.query(`UPDATE businesses SET card_issuing_structure = 'PER_ENTITY' WHERE id = $1`, [f.businessId]);
    const missing = await invite(owner, person(f, 'e1'));
    expect(missing).toMatchObject({ status: 422, body: { error_v2: { message: CARD_ISSUING_MESSAGE } } });
    const entity = await request(t.app, 'POST', '/v1/auth/businesses/entities', { token: owner, body: { name: 'UK Ltd', country: 'GB', currency: 'GBP' } });
    expect((await invite(owner, { ...person(f, 'e2'), entity_id: entity.body.id })).body.user.entity_id).toBe(entity.body.id);
    const foreign = await invite(owner, { ...person(f, 'e3'), entity_id: entity.body.id, manager_id: o.users.manager, location_id: o.locations[0] });
    expect(foreign.status).toBe(422);
    expect(Object.keys(foreign.body.error_v2.errors).sort()).toEqual(['location_id', 'manager_id']);
  });

  it('expires invites after 7 days (AUTH_7027, INVITE_EXPIRED) and a resend issues a new token and expiry', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const p = person(f, 'late');
    const made = await invite(await signIn(t.app, f.email('admin')), p);
    const first = tokenFor(p.email);
    const other = person(f, 'job');
    await invite(await signIn(t.app, f.email('admin')), other);
    clock.now += INVITE_TTL_MS + 1;
    expect(await expireInvites(t.db, clock.now, { businessId: f.businessId })).toBe(2);
    expect((await userRow(made.body.user.id)).status).toBe('INVITE_EXPIRED');
    const late = await request(t.app, 'POST', `/v1/public/invites/${first}/accept`, { body: { password: PASSWORD } });
    expect(late).toMatchObject({ status: 403, body: { error_v2: { error_code: 'AUTH_7027' } } });
    const admin = await signIn(t.app, f.email('admin'));
    const resent = await request(t.app, 'POST', `/v1/auth/businesses/users/${made.body.user.id}/resend-invite`, { token: admin, body: {} });
    expect(resent.body).toMatchObject({ user: { status: 'INVITED' }, invite: { expires_at: new Date(clock.now + INVITE_TTL_MS).toISOString() } });
    const second = tokenFor(p.email);
    expect(second).not.toBe(first);
    expect((await request(t.app, 'POST', `/v1/public/invites/${first}/accept`, { body: { password: PASSWORD } })).status).toBe(403);
    expect((await request(t.app, 'POST', `/v1/public/invites/${second}/accept`, { body: { password: PASSWORD } })).status).toBe(200);
    const active = await request(t.app, 'POST', `/v1/auth/businesses/users/${made.body.user.id}/resend-invite`, { token: admin, body: {} });
    expect(active.status).toBe(422);
  });

  it('records INVITE_EXPIRED lazily when an overdue invite is used before any job ran', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const p = person(f, 'lazy');
    const made = await invite(await signIn(t.app, f.email('owner')), p);
    clock.now += INVITE_TTL_MS;
    const late = await request(t.app, 'POST', `/v1/public/invites/${tokenFor(p.email)}/accept`, { body: { password: PASSWORD } });
    expect(late.body.error_v2.message).toBe('You have an expired invite. Request a new invite from your admin to log in.');
    expect((await userRow(made.body.user.id)).status).toBe('INVITE_EXPIRED');
  });

  it('sign-in answers AUTH_7027 for an invite past its expiry before any job ran, and records INVITE_EXPIRED', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const p = person(f, 'overdue');
    const made = await invite(await signIn(t.app, f.email('admin')), p);
    const signInAs = () => request(t.app, 'POST', '/v1/public/sign-in', { body: { email: p.email, password: PASSWORD } });
    expect((await signInAs()).body.error_v2.error_code).toBe('AUTH_7026');
    clock.now += INVITE_TTL_MS;
    const late = await signInAs();
    expect(late).toMatchObject({ status: 403, body: { error_v2: { error_code: 'AUTH_7027' } } });
    expect((await userRow(made.body.user.id)).status).toBe('INVITE_EXPIRED');
  });

  it('invite acceptance makes the MFA decision of sign-in (business rule, an existing authenticator)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [f.businessId]);
    const p = person(f, 'strict');
    await invite(admin, p);
    const accepted = await request(t.app, 'POST', `/v1/public/invites/${tokenFor(p.email)}/accept`, { body: { password: PASSWORD } });
    expect(accepted.body.mfa_required).toBe(true);
    expect(claimsOf(accepted.body.id_token)).toMatchObject({ ramp_access_scopes: [], ramp_mfa_required: true, ramp_mfa_authed: false });
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: accepted.body.id_token })).status).toBe(403);

    // A member of another business (no MFA rule there) who enrolled an authenticator.
    const o = await makeBusiness(t.db, { transactions: 0 });
    const email = o.email('employee');
    const { secret } = await enrolTotp(t.app, await signIn(t.app, email), clock.now);
    await invite(admin, { ...person(f, 'enrolled'), email });
    await t.db.query('UPDATE businesses SET mfa_required = false WHERE id = $1', [f.businessId]);
    const linked = await request(t.app, 'POST', `/v1/public/invites/${tokenFor(email)}/accept`, { body: { password: FIXTURE_PASSWORD } });
    expect(linked.body.mfa_required).toBe(true);
    clock.now += STEP_MS;
    const done = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', {
      token: linked.body.id_token, body: { code: totpCode(secret, clock.now) },
    });
    expect(claimsOf(done.body.id_token)).toMatchObject({ business_id: f.businessId, ramp_mfa_authed: true, ramp_access_scopes: ['default'] });
  });

  it('changes roles with a new seq (visibility epoch follows); only owners touch owners; the last owner stays', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const owner = await signIn(t.app, f.email('owner'));
    const admin = await signIn(t.app, f.email('admin'));
    const employee = await signIn(t.app, f.email('employee'));
    const epoch = async (token: string) => (await request(t.app, 'GET', '/v1/auth/sync/changes?after=0&limit=1', { token })).body.visibility_epoch as string;
    const before = await epoch(employee);
    const seq = (await userRow(f.users.employee)).change_seq;
    const changed = await request(t.app, 'PATCH', `/v1/auth/businesses/users/${f.users.employee}/role`, { token: admin, body: { role: 'BUSINESS_BOOKKEEPER' } });
    expect(changed.body).toMatchObject({ role: 'BUSINESS_BOOKKEEPER' });
    expect(Number(changed.body.change_seq)).toBeGreaterThan(Number(seq));
    expect(await epoch(employee)).not.toBe(before);
    const promote = await request(t.app, 'PATCH', `/v1/auth/businesses/users/${f.users.admin}/role`, { token: admin, body: { role: 'BUSINESS_OWNER' } });
    expect(promote.status).toBe(403);
    const demoteSelf = await request(t.app, 'PATCH', `/v1/auth/businesses/users/${f.users.owner}/role`, { token: owner, body: { role: 'BUSINESS_ADMIN' } });
    expect(demoteSelf).toMatchObject({ status: 422, body: { error_v2: { message: 'The last owner of a business cannot be demoted.' } } });
    expect((await request(t.app, 'PATCH', `/v1/auth/businesses/users/${f.users.admin}/role`, { token: employee, body: { role: 'BUSINESS_USER' } })).status).toBe(403);
  });

  it('suspends (sessions revoked, sign-in blocked), unsuspends, and deletes as a tombstone', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    const victim = await signIn(t.app, f.email('teammate'));
    const suspended = await request(t.app, 'POST', `/v1/auth/businesses/users/${f.users.teammate}/suspend`, { token: admin, body: {} });
    expect(suspended.body.status).toBe('SUSPENDED');
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: victim })).status).toBe(401);
    expect(signInBlock(await userRow(f.users.teammate))).toEqual({ code: 'AUTH_7022', message: SUSPENDED_MESSAGE });
    expect((await request(t.app, 'POST', `/v1/auth/businesses/users/${f.users.admin}/suspend`, { token: admin, body: {} })).status).toBe(422);
    const back = await request(t.app, 'DELETE', `/v1/auth/users/${f.users.teammate}/suspend`, { token: admin });
    expect(back.body.status).toBe('ACTIVE');
    expect((await request(t.app, 'DELETE', `/v1/auth/users/${f.users.teammate}/suspend`, { token: admin })).status).toBe(422);

    const again = await signIn(t.app, f.email('teammate'));
    const seq = Number((await userRow(f.users.teammate)).change_seq);
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/users/${f.users.teammate}`, { token: admin })).body).toEqual({ ok: true });
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: again })).status).toBe(401);
    const feed = await request(t.app, 'GET', `/v1/auth/sync/changes?after=${seq}`, { token: admin });
    expect(feed.body.changes).toEqual([expect.objectContaining({ collection: 'users', id: f.users.teammate, deleted: true })]);
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/users/${f.users.teammate}`, { token: admin })).status).toBe(404);
    const list = await request(t.app, 'GET', '/v1/auth/businesses/users?page_size=100', { token: admin });
    expect(list.body.data.map((u: { id: string }) => u.id)).not.toContain(f.users.teammate);
  });
});
