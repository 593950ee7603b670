import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, type Fixture } from '../test-fixtures.ts';
import { isSwitchable } from './business-switch.ts';
import { signInUser } from './auth.ts';

describe('isSwitchable', () => {
  it.each([
    [{ role: 'BUSINESS_USER', status: 'ACTIVE' }, true],
    [{ role: 'BUSINESS_USER', status: 'ACTIVE', deleted: true }, false],
    [{ role: 'BUSINESS_USER', status: 'SUSPENDED' }, false],
    [{ role: 'BUSINESS_USER', status: 'INVITED' }, false],
    [{ role: 'VENDOR_NETWORK_ADMIN', status: 'ACTIVE' }, false],
    [{ role: 'ADVISOR_CONSOLE_USER', status: 'ACTIVE' }, false],
  ])('%j → %s', (user, expected) => expect(isSwitchable(user)).toBe(expected));
});

describe('signInUser', () => {
  const doc = (business_id: string, extra: Record<string, unknown> = {}) => ({
    id: randomUUID(), business_id, role: 'BUSINESS_USER', is_manager: false, user_permissions: [], external_firm: null,
    has_finished_onboarding: true, is_business_locked: false, has_accepted_cardholder_agreement: true, status: 'ACTIVE',
    payroll_currency: null, ...extra,
  });
  const a = doc('a');
  const b = doc('b');
  const hidden = doc('h', { role: 'VENDOR_NETWORK_ADMIN' });
  const suspended = doc('s', { status: 'SUSPENDED' });
  it.each([
    ['the asked business', 'b', b],
    ['the §6 default without one', null, a],
    ['the default for a business the identity is not in', 'zzz', a],
    ['the default instead of a hidden user', 'h', a],
    ['the default instead of a suspended user', 's', a],
  ])('%s', (_, asked, expected) => expect(signInUser([hidden, a, suspended, b], asked)).toBe(expected));
});

type Claims = { business_id: string; ramp_user_uuid: string; ramp_session_id: string; ramp_access_scopes: string[]; ramp_mfa_authed: boolean };
const claimsOf = (token: string) => decodeJwt(token) as unknown as Claims;

describe.each(await testDatabases())('business switch on %s', (kind) => {
  const t = useTestApp(kind);

  /** A's owner also gets a spend user in B (as an accepted invite leaves it: ACTIVE, same identity). */
  async function twoBusinesses(role = 'BUSINESS_ADMIN', status = 'ACTIVE') {
    const a = await makeBusiness(t.db, { transactions: 10, name: `Alpha ${randomUUID().slice(0, 6)}` });
    const b = await makeBusiness(t.db, { transactions: 15, name: `Beta ${randomUUID().slice(0, 6)}` });
    const [owner] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM spend_users WHERE id = $1', [a.users.owner]);
    const userInB = randomUUID();
    await t.db.query(
      `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, status, change_seq)
       VALUES ($1, $2, $3, $4, 'Owner', 'Twice', $5, $6, (SELECT change_seq + 1 FROM businesses WHERE id = $2))`,
      [userInB, b.businessId, owner!.identity_id, role, a.email('owner'), status],
    );
    return { a, b, userInB, email: a.email('owner') };
  }
  /** Signs into A explicitly: without business_id the default is the lower business id. */
  const signInA = async (email: string, a: Fixture) => {
    const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD, business_id: a.businessId } });
    expect(res.status).toBe(200);
    return res.body.id_token as string;
  };
  const switchTo = (token: string, business_id: string) =>
    request(t.app, 'PATCH', '/v1/auth/users/current/business', { token, body: { business_id } });
  const searchIds = async (token: string) => {
    const res = await request(t.app, 'POST', '/v1/auth/transactions/search', { token, body: { paging: { page_size: 100 } } });
    expect(res.status).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id).sort();
  };
  const allOf = (f: Fixture) => [...f.allTransactions].sort();

  it('switches to another business on the same session; the new token sees only that business', async () => {
    const { a, b, userInB, email } = await twoBusinesses();
    const token = await signInA(email, a);
    expect(await searchIds(token)).toEqual(allOf(a));
    const res = await switchTo(token, b.businessId);
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(false);
    const next = claimsOf(res.body.id_token);
    expect(next).toMatchObject({ business_id: b.businessId, ramp_user_uuid: userInB, ramp_access_scopes: ['default'] });
    expect(next.ramp_session_id).toBe(claimsOf(token).ramp_session_id);
    expect(await searchIds(res.body.id_token)).toEqual(allOf(b));

    const me = await request(t.app, 'GET', '/v1/auth/identity', { token: res.body.id_token });
    expect(me.body.business.id).toBe(b.businessId);
    expect(me.body.identity.spend_users.map((u: { business_id: string }) => u.business_id).sort()).toEqual([a.businessId, b.businessId].sort());
    const names = (me.body.businesses as { id: string; name: string }[]).map((x) => x.name).sort();
    expect(names).toEqual([(await nameOf(a)), (await nameOf(b))].sort());
    // And back again.
    const back = await switchTo(res.body.id_token, a.businessId);
    expect(claimsOf(back.body.id_token).business_id).toBe(a.businessId);
  });
  const nameOf = async (f: Fixture) => (await t.db.query<{ name: string }>('SELECT name FROM businesses WHERE id = $1', [f.businessId]))[0]!.name;

  it('answers 404 for a business the identity is not in, and for an unknown one', async () => {
    const { a, email } = await twoBusinesses();
    const other = await makeBusiness(t.db, { transactions: 0 });
    const token = await signInA(email, a);
    for (const id of [other.businessId, randomUUID()]) {
      const res = await switchTo(token, id);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(id);
    }
  });

  it('answers 404 for a hidden spend user and refuses a suspended or deleted one', async () => {
    const hidden = await twoBusinesses('VENDOR_NETWORK_ADMIN');
    expect((await switchTo(await signInA(hidden.email, hidden.a), hidden.b.businessId)).status).toBe(404);
    const suspended = await twoBusinesses('BUSINESS_USER', 'SUSPENDED');
    const refused = await switchTo(await signInA(suspended.email, suspended.a), suspended.b.businessId);
    expect(refused.status).toBe(403);
    expect(refused.body.error_v2.error_code).toBe('AUTH_7022');
    const deleted = await twoBusinesses();
    await t.db.query('UPDATE spend_users SET deleted = true WHERE id = $1', [deleted.userInB]);
    expect((await switchTo(await signInA(deleted.email, deleted.a), deleted.b.businessId)).status).toBe(404);
  });

  it('asks for MFA when the new business requires it and the session has not passed it', async () => {
    const { a, b, email } = await twoBusinesses();
    await t.db.query('UPDATE businesses SET mfa_required = true WHERE id = $1', [b.businessId]);
    const res = await switchTo(await signInA(email, a), b.businessId);
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(true);
    expect(claimsOf(res.body.id_token).ramp_access_scopes).toEqual([]);
    expect((await request(t.app, 'POST', '/v1/auth/transactions/search', { token: res.body.id_token, body: {} })).status).toBe(403);
  });

  it('signs straight into the business named at sign-in, else the default', async () => {
    const { a, b, email } = await twoBusinesses();
    const signInTo = async (business_id?: string) => {
      const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD, business_id } });
      expect(res.status).toBe(200);
      return claimsOf(res.body.id_token).business_id;
    };
    expect(await signInTo(b.businessId)).toBe(b.businessId);
    expect(await signInTo(a.businessId)).toBe(a.businessId);
    expect(await signInTo(randomUUID())).toBe(a.businessId < b.businessId ? a.businessId : b.businessId);
  });
});
