/**
 * Issue 31: the calls every signed-in token makes answer a token of any surface (identity,
 * sign-out, MFA, step-up, the business switch), and the scope picker (identity.scopes.list/switch).
 * The surfaces' memberships are their owners' (helpers A, B, C); here a test-only membership holds
 * what `HELD` says, so the tokens are admitted.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { currentIdentity } from '../../schema/api/calls.ts';
import { listScopes } from '../../schema/api/calls-surfaces.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import { surfaceSignIn } from '../auth/session.ts';
import { totpCode } from '../auth/totp.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, refusal, request, signIn } from '../test-fixtures.ts';
import { claimsOf, enrolTotp, outboxCode, STEP_MS, testClock } from './identity-test-kit.ts';

/** identity id → the surface subject ids it holds, each with its kind (test-only membership). */
const HELD = vi.hoisted(() => new Map<string, Set<string>>());
const KIND = vi.hoisted(() => new Map<string, 'VENDOR_PORTAL' | 'FINANCING_APPLICATION'>());
const holds = (identityId: string, id: string) => HELD.get(identityId)?.has(id) === true;
const heldOf = (identityId: string, kind: string) => [...(HELD.get(identityId) ?? [])].filter((id) => (KIND.get(id) ?? 'VENDOR_PORTAL') === kind);
vi.mock('../auth/surfaces/vendor.ts', async (original) => ({
  ...(await original<object>()),
  vendorPortalMembership: {
    holds: async (_db: unknown, identityId: string, claim: { network_vendor_id: string }) => holds(identityId, claim.network_vendor_id),
    choices: async (_db: unknown, identityId: string) => heldOf(identityId, 'VENDOR_PORTAL').map((id) => ({
      target: { kind: 'VENDOR_PORTAL', network_vendor_id: id }, label: 'Acme Supplies', detail: 'Vendor',
    })),
  },
}));
vi.mock('../auth/surfaces/applicant.ts', async (original) => ({
  ...(await original<object>()),
  financingApplicationMembership: {
    holds: async (_db: unknown, identityId: string, claim: { financing_application_id: string }) => holds(identityId, claim.financing_application_id),
    choices: async (_db: unknown, identityId: string) => heldOf(identityId, 'FINANCING_APPLICATION').map((id) => ({
      target: { kind: 'FINANCING_APPLICATION', financing_application_id: id }, label: 'Application', detail: 'Applicant',
    })),
  },
}));

const clock = testClock();
const PASSKEYS = '/v1/auth/authentication/tokens/webauthn';

describe.each(await testDatabases())('any-surface calls on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });

  async function person(role: 'owner' | 'employee' = 'owner') {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const [row] = await t.db.query<{ identity_id: string }>('SELECT identity_id FROM spend_users WHERE id = $1', [f.users[role]]);
    return { f, identityId: row!.identity_id, email: f.email(role) };
  }
  const vendorClaim = (identityId: string): OtherSurfaceClaim => {
    const id = randomUUID();
    HELD.set(identityId, new Set([...(HELD.get(identityId) ?? []), id]));
    return { kind: 'VENDOR_PORTAL', network_vendor_id: id };
  };
  const surfaceToken = async (identityId: string, surface: OtherSurfaceClaim, opts: Parameters<typeof surfaceSignIn>[4] = {}) =>
    (await surfaceSignIn(t.app.deps, t.db, identityId, surface, opts)).id_token;

  it('GET identity answers a surface token: no user or business, the identity and its businesses', async () => {
    const p = await person();
    const token = await surfaceToken(p.identityId, vendorClaim(p.identityId));
    const res = await request(t.app, 'GET', '/v1/auth/identity', { token });
    expect(res.status).toBe(200);
    const body = currentIdentity.response.parse(res.body);
    expect(body).toMatchObject({ user: null, business: null, businesses: [{ id: p.f.businessId }] });
    expect(body.identity).toMatchObject({
      id: p.identityId, email: p.email, external_firm_user: null, external_firm_applicant: null, financing_application_users: [],
    });
    expect(body.identity.spend_users.map((u) => u.id)).toEqual([p.f.users.owner]);
  });

  it('a surface the identity no longer holds is refused (4014), and sign-out ends every token of the session', async () => {
    const p = await person();
    const claim = vendorClaim(p.identityId);
    const token = await surfaceToken(p.identityId, claim);
    const out = await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token, body: {} });
    expect(out.body).toEqual({ ok: true });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/identity', { token }))).toEqual([401, 'AUTH_7003']);
    const again = await surfaceToken(p.identityId, claim);
    HELD.delete(p.identityId);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/identity', { token: again }))).toEqual([404, '4014']);
  });

  it('MFA on a surface: check-mfa reads the identity, verify-mfa re-issues the same surface; the application keeps email-otp for 12 h', async () => {
    const p = await person('employee');
    const { secret } = await enrolTotp(t.app, await signIn(t.app, p.email), clock.ms);
    clock.advance(STEP_MS);
    const app = { kind: 'FINANCING_APPLICATION', financing_application_id: randomUUID() } as const;
    KIND.set(app.financing_application_id, 'FINANCING_APPLICATION');
    HELD.set(p.identityId, new Set([app.financing_application_id]));
    const pending = await surfaceToken(p.identityId, app, { extraScopes: ['email-otp'] });
    expect(claimsOf(pending)).toMatchObject({ ramp_access_scopes: [], ramp_surface: app, business_id: null, ramp_user_uuid: null });
    const check = await request(t.app, 'POST', '/v1/auth/users/current/check-mfa', { token: pending, body: {} });
    expect(check.body).toEqual({ mfa_required: true, mfa_authed: false, totp_enrolled: true, factors: ['totp'] });
    const sent = await request(t.app, 'POST', '/v1/auth/users/current/send-mfa', { token: pending, body: {} });
    expect(sent.body).toMatchObject({ factor: 'totp', enrolled: true });
    const done = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code: totpCode(secret, clock.ms) } });
    expect(done.status).toBe(200);
    const claims = claimsOf(done.body.id_token);
    expect(claims).toMatchObject({ ramp_surface: app, ramp_mfa_authed: true, ramp_access_scopes: ['default', 'email-otp'], business_id: null });
    expect(claims.exp - claims.iat).toBe(12 * 60 * 60);
  });

  it('a vendor portal token after MFA is fully scoped for the portal, without email-otp', async () => {
    const p = await person('employee');
    const { secret } = await enrolTotp(t.app, await signIn(t.app, p.email), clock.ms);
    clock.advance(STEP_MS);
    const claim = vendorClaim(p.identityId);
    const pending = await surfaceToken(p.identityId, claim);
    // A passkey may prove it too: its challenge is asked with the pending surface token (this person has none).
    const options = await request(t.app, 'POST', `${PASSKEYS}/authentication/options`, { token: pending, body: {} });
    expect([...refusal(options), options.body.error_v2.message]).toEqual([404, 'REQUEST_7004', 'You have no passkey yet.']);
    const done = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', { token: pending, body: { code: totpCode(secret, clock.ms) } });
    expect(claimsOf(done.body.id_token)).toMatchObject({ ramp_surface: claim, ramp_access_scopes: ['default'], ramp_mfa_authed: true });
  });

  it('step-up on a surface token: sensitive by password, email-otp by the mailed code, each for 10 minutes on that surface', async () => {
    const p = await person();
    const claim = vendorClaim(p.identityId);
    const token = await surfaceToken(p.identityId, claim);
    const wrong = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: 'not-it-at-all' } });
    expect(refusal(wrong)).toEqual([401, 'AUTH_7001']);
    const up = await request(t.app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
    expect(up.status).toBe(200);
    const sensitive = claimsOf(up.body.id_token);
    expect(sensitive).toMatchObject({ ramp_surface: claim, ramp_access_scopes: ['default', 'sensitive'], ramp_user_uuid: null });
    expect(sensitive.exp - sensitive.iat).toBe(10 * 60);

    expect((await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} })).status).toBe(200);
    const code = await outboxCode(t.app, p.email);
    const otp = await request(t.app, 'POST', '/v1/auth/users/current/verify-email-otp', { token, body: { code } });
    expect(otp.status).toBe(200);
    expect(claimsOf(otp.body.id_token)).toMatchObject({ ramp_surface: claim, ramp_access_scopes: ['default', 'email-otp'] });
  });

  it('the session calls and the business switch answer a surface token (back into the business)', async () => {
    const p = await person();
    const token = await surfaceToken(p.identityId, vendorClaim(p.identityId));
    expect((await request(t.app, 'GET', '/v1/auth/identity/id', { token })).body).toEqual({ identity_id: p.identityId });
    expect((await request(t.app, 'GET', '/v1/auth/users/current/full-auth-check', { token })).body).toMatchObject({ ok: true });
    const back = await request(t.app, 'PATCH', '/v1/auth/users/current/business', { token, body: { business_id: p.f.businessId } });
    expect(back.status).toBe(200);
    const claims = claimsOf(back.body.id_token);
    expect(claims).toMatchObject({ business_id: p.f.businessId, ramp_user_uuid: p.f.users.owner, ramp_session_id: claimsOf(token).ramp_session_id });
    expect(claims.ramp_surface).toBeUndefined();
    expect((await request(t.app, 'GET', '/v1/auth/transactions', { token: back.body.id_token })).status).toBe(200);
  });

  it('telemetry is taken from any token (a public call: the surface gate never applies)', async () => {
    const p = await person();
    const token = await surfaceToken(p.identityId, vendorClaim(p.identityId));
    const events = [{ name: 'portal.viewed', path: '/vendor-portal', props: {}, ts: new Date(clock.ms).toISOString() }];
    expect((await request(t.app, 'POST', '/v1/public/telemetry', { token, body: { events } })).status).toBe(204);
  });

  describe('sign-in with no business to open', () => {
    /** A new identity with the fixture password (copied hash) and no spend user at all. */
    async function bare() {
      const p = await person();
      const id = randomUUID();
      const email = `bare-${id.slice(0, 8)}@surface.test`;
      await t.db.query('INSERT INTO identities (id, email, password_hash) SELECT $1, $2, password_hash FROM identities WHERE id = $3', [id, email, p.identityId]);
      return { identityId: id, email, p };
    }
    const signInBody = (email: string, password = FIXTURE_PASSWORD) => ({ body: { email, password } });

    it('opens the first other surface held: a vendor network admin into its portal, an applicant into the application', async () => {
      const v = await bare();
      await t.db.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
         VALUES ($1, $2, $3, 'VENDOR_NETWORK_ADMIN', 'V', 'N', $4, 999)`,
        [randomUUID(), v.p.f.businessId, v.identityId, v.email],
      );
      const claim = vendorClaim(v.identityId);
      const res = await request(t.app, 'POST', '/v1/public/sign-in', signInBody(v.email));
      expect(res.status, res.text).toBe(200);
      expect(claimsOf(res.body.id_token)).toMatchObject({ sub: v.identityId, ramp_surface: claim, business_id: null, ramp_access_scopes: ['default'] });

      const a = await bare();
      const app = { kind: 'FINANCING_APPLICATION', financing_application_id: randomUUID() } as const;
      KIND.set(app.financing_application_id, 'FINANCING_APPLICATION');
      HELD.set(a.identityId, new Set([app.financing_application_id]));
      const signed = await request(t.app, 'POST', '/v1/public/sign-in', signInBody(a.email));
      // A password proves no mailbox: the application's email-otp is the mailed code's alone.
      expect(claimsOf(signed.body.id_token)).toMatchObject({ ramp_surface: app, ramp_access_scopes: ['default'] });
    });

    it('a wrong password is still AUTH_7001, and an identity holding nothing is still 4014', async () => {
      const a = await bare();
      HELD.set(a.identityId, new Set([randomUUID()]));
      await t.db.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
         VALUES ($1, $2, $3, 'VENDOR_NETWORK_ADMIN', 'V', 'N', $4, 999)`,
        [randomUUID(), a.p.f.businessId, a.identityId, a.email],
      );
      expect(refusal(await request(t.app, 'POST', '/v1/public/sign-in', signInBody(a.email, 'wrong-password-1')))).toEqual([401, 'AUTH_7001']);
      const none = await bare();
      expect(refusal(await request(t.app, 'POST', '/v1/public/sign-in', signInBody(none.email)))).toEqual([404, '4014']);
    });

    it('a business to open still wins over every other surface', async () => {
      const p = await person();
      vendorClaim(p.identityId);
      const res = await request(t.app, 'POST', '/v1/public/sign-in', signInBody(p.email));
      expect(claimsOf(res.body.id_token)).toMatchObject({ business_id: p.f.businessId });
      expect(claimsOf(res.body.id_token).ramp_surface).toBeUndefined();
    });
  });

  describe('scopes', () => {
    it('lists the businesses (switchable only, never a hidden user) and the surfaces held, labelled', async () => {
      const p = await person();
      const other = await makeBusiness(t.db, { transactions: 0, name: 'Zeta Hidden Co' });
      await t.db.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, first_name, last_name, email, change_seq)
         VALUES ($1, $2, $3, 'VENDOR_NETWORK_ADMIN', 'V', 'N', $4, 999)`,
        [randomUUID(), other.businessId, p.identityId, p.email],
      );
      const claim = vendorClaim(p.identityId);
      const res = await request(t.app, 'GET', '/v1/auth/identity/scopes', { token: await signIn(t.app, p.email) });
      expect(res.status).toBe(200);
      expect(listScopes.response.parse(res.body).scopes).toEqual([
        { target: { kind: 'BUSINESS', business_id: p.f.businessId }, label: expect.stringMatching(/^Fixture /), detail: 'Owner' },
        { target: claim, label: 'Acme Supplies', detail: 'Vendor' },
      ]);
    });

    it('the vendor portal is not offered to an identity that is no vendor network admin anywhere', async () => {
      const p = await person();
      vendorClaim(p.identityId);
      const res = await request(t.app, 'GET', '/v1/auth/identity/scopes', { token: await signIn(t.app, p.email) });
      expect(res.body.scopes.map((s: { target: { kind: string } }) => s.target.kind)).toEqual(['BUSINESS']);
    });

    it('switches to a held surface on the same session and back to a business; a scope not held is 404 4014', async () => {
      const p = await person();
      const business = await signIn(t.app, p.email);
      const claim = vendorClaim(p.identityId);
      const res = await request(t.app, 'PATCH', '/v1/auth/users/current/scope', { token: business, body: { scope: claim } });
      expect(res.status).toBe(200);
      expect(res.body.mfa_required).toBe(false);
      const portal = res.body.id_token as string;
      expect(claimsOf(portal)).toMatchObject({
        ramp_surface: claim, ramp_session_id: claimsOf(business).ramp_session_id, ramp_access_scopes: ['default'], business_id: null,
      });
      expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: portal }))).toEqual([403, 'SURFACE_7001']);
      const back = await request(t.app, 'PATCH', '/v1/auth/users/current/scope', {
        token: portal, body: { scope: { kind: 'BUSINESS', business_id: p.f.businessId } },
      });
      expect(claimsOf(back.body.id_token)).toMatchObject({ business_id: p.f.businessId, ramp_user_uuid: p.f.users.owner });

      const notHeld = { kind: 'VENDOR_PORTAL', network_vendor_id: randomUUID() };
      for (const scope of [notHeld, { kind: 'VENDOR_PORTAL', network_vendor_id: 'not-a-uuid' }, { kind: 'BUSINESS', business_id: randomUUID() }]) {
        expect(refusal(await request(t.app, 'PATCH', '/v1/auth/users/current/scope', { token: business, body: { scope } }))).toEqual([404, '4014']);
      }
      const firm = { kind: 'ADVISOR_CONSOLE', external_firm_id: randomUUID(), external_firm_user_id: randomUUID() };
      expect(refusal(await request(t.app, 'PATCH', '/v1/auth/users/current/scope', { token: business, body: { scope: firm } }))).toEqual([404, '4014']);
      expect(refusal(await request(t.app, 'PATCH', '/v1/auth/users/current/scope', { token: business, body: { scope: { kind: 'NOPE' } } }))[0]).toBe(422);
    });

    it('signing out from the switched token ends the business token too (one session)', async () => {
      const p = await person();
      const business = await signIn(t.app, p.email);
      const res = await request(t.app, 'PATCH', '/v1/auth/users/current/scope', { token: business, body: { scope: vendorClaim(p.identityId) } });
      await request(t.app, 'POST', '/v1/auth/users/current/sign-out', { token: res.body.id_token, body: {} });
      expect(refusal(await request(t.app, 'GET', '/v1/auth/identity', { token: business }))).toEqual([401, 'AUTH_7003']);
    });
  });
});
