import { describe, expect, it } from 'vitest';
import { spendUserSchema, type SpendUser } from '../schema/entities/spend-user.ts';
import { businessSchema } from '../schema/entities/business.ts';
import { identitySchema } from '../schema/entities/identity.ts';
import { errorBody } from '../schema/errors.ts';
import { FEATURE_FLAG_DEFAULTS } from '../schema/feature-flags.ts';
import { createFakeClock, fakeToken, flush, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import { BUSINESS_ID, makeUser, testUuid } from './test-fixtures.ts';
import { testDevice } from './testing/signed-in-worker.ts';
import type { BusinessSessionInfo } from './contracts/session.ts';

const userOf = (n: number) =>
  spendUserSchema.parse({
    ...makeUser(n, 'Ada', `Lovelace${n}`, { role: 'BUSINESS_ADMIN' }),
    business_id: BUSINESS_ID, external_firm: null, has_finished_onboarding: true, is_business_locked: false,
    user_permissions: [], payroll_currency: null, has_accepted_cardholder_agreement: true, impersonator: null,
    acting_user_is_in_reporting_chain: false, external_firm_role: null,
  });
const BUSINESS = businessSchema.parse({ id: BUSINESS_ID, name: 'Demo', currency: 'USD', status: 'ACTIVE', created_at: '2024-01-01T00:00:00.000Z' });
const PASSWORD = 'demo-password-1';
const CODE = '123456';
/** First enrolment (no authenticator yet): the code the authenticator shows first, the next one, and the mailed code. */
const ENROL_CODE = '111111';
const NEXT_CODE = '222222';
const EMAIL_CODE = '654321';
const AUTHENTICATOR_ID = testUuid(9, 1);
const PASSKEY_ID = testUuid(9, 2);
const PASSKEY_CHALLENGE = 'c2VydmVyLWNoYWxsZW5nZS0wMDAwMDAwMDAwMDAwMDAw';
/** A passkey assertion as @simplewebauthn/browser shapes it (the scripted server does not check it). */
const ASSERTION = {
  id: 'Y3JlZGVudGlhbC1pZC0wMDAwMDAwMDAwMDAwMDAw', rawId: 'Y3JlZGVudGlhbC1pZC0wMDAwMDAwMDAwMDAwMDAw', type: 'public-key' as const,
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' }, clientExtensionResults: {},
};
// Issued at the fake clock's start, like a real sign-in token (the recent-token allowance reads iat).
const PRE_MFA = fakeToken([], { ramp_mfa_required: true, ramp_mfa_authed: false, iat: Date.UTC(2026, 0, 1) / 1000 });
const FULL = fakeToken(['default'], { ramp_mfa_required: true, ramp_mfa_authed: true });

/**
 * A scripted server for the identity calls (our transport port, not a fake server of the
 * product): it records which token each call carried and applies the scope rules the real
 * server applies (sensitive needs the stepped-up token).
 */
function identityServer(clock: { now(): number }) {
  const state = {
    user: userOf(1) as SpendUser,
    mfa: true,
    signUpToken: FULL,
    flags: { auditor_role: true, bulk_bill_creation_limit: 20 } as Record<string, unknown>,
    offline: false,
    revoked: false,
    calls: [] as { path: string; token: string | null }[],
    stepped: '',
    /** An active authenticator exists (false: a first enrolment is due before verify-mfa). */
    enrolled: true,
    emailsSent: 0,
    verifyBodies: [] as Record<string, string>[],
  };
  const transport: Transport = async (input, init) => {
    if (state.offline) throw new TypeError('offline');
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const token = headers.get('RAMP-ID-TOKEN');
    state.calls.push({ path: url.pathname, token });
    if (state.revoked && token) return jsonResponse(401, errorBody('AUTH_7003'));
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, string>) : {};
    switch (url.pathname) {
      case '/v1/public/sign-in':
        return body.password === PASSWORD
          ? jsonResponse(200, { id_token: state.mfa ? PRE_MFA : FULL, mfa_required: state.mfa })
          : jsonResponse(401, errorBody('AUTH_7001'));
      case '/v1/public/sign-up':
        return jsonResponse(200, { id_token: state.signUpToken, mfa_required: false });
      case '/v1/auth/users/current/verify-mfa': {
        if ('webauthn' in body) return jsonResponse(200, { id_token: FULL, mfa_required: false });
        const valid = state.enrolled && body.code === (state.verifyBodies.length > 0 ? NEXT_CODE : CODE);
        return valid ? jsonResponse(200, { id_token: FULL, mfa_required: true }) : jsonResponse(400, errorBody('AUTH_7025'));
      }
      case '/v1/auth/users/current/check-mfa':
        return jsonResponse(200, { mfa_required: true, mfa_authed: false, totp_enrolled: state.enrolled, factors: state.enrolled ? ['totp'] : [] });
      case '/v1/auth/users/current/send-email-otp':
        state.emailsSent += 1;
        return jsonResponse(200, { sent: true, expires_at: new Date(clock.now() + 600_000).toISOString() });
      case '/v1/auth/authentication/tokens/totp':
        return jsonResponse(201, { authenticator_id: AUTHENTICATOR_ID, secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' });
      case `/v1/auth/authentication/tokens/totp/${AUTHENTICATOR_ID}/verify`: {
        state.verifyBodies.push(body);
        if (!body.email_code) return jsonResponse(403, errorBody('AUTH_7016', 'Confirm the code we emailed you to finish setting up two-factor authentication.'));
        if (body.email_code !== EMAIL_CODE) return jsonResponse(422, errorBody('PROFILE_7017'));
        if (body.code !== ENROL_CODE) return jsonResponse(400, errorBody('AUTH_7025'));
        state.enrolled = true;
        return jsonResponse(200, { authenticator_id: AUTHENTICATOR_ID, active: true });
      }
      case '/v1/auth/identity': {
        const identity = identitySchema.parse({
          id: testUuid(8, 1), email: state.user.email, spend_users: [state.user], external_firm_user: null,
          external_firm_applicant: null, financing_application_users: [], identity_ofac_status: null,
        });
        return jsonResponse(200, { identity, user: state.user, business: BUSINESS });
      }
      case '/v1/auth/users/current/step-up': {
        if (body.password !== PASSWORD) return jsonResponse(401, errorBody('AUTH_7001'));
        state.stepped = fakeToken(['default', 'sensitive'], { n: state.calls.length });
        return jsonResponse(200, { id_token: state.stepped, expires_at: new Date(clock.now() + 300_000).toISOString() });
      }
      case '/v1/auth/users/current/change-password':
        return token === state.stepped ? jsonResponse(200, { ok: true }) : jsonResponse(403, errorBody('AUTH_7016'));
      case '/v1/auth/feature_flags':
        return jsonResponse(200, { flags: state.flags });
      case '/v1/auth/authentication/tokens/webauthn/authentication/options':
        return jsonResponse(201, { options: { challenge: PASSKEY_CHALLENGE, rpId: 'localhost', allowCredentials: [] }, expires_at: new Date(clock.now() + 300_000).toISOString() });
      case `/v1/auth/authentication/tokens/webauthn/${PASSKEY_ID}`:
        return token === state.stepped ? jsonResponse(200, { ok: true }) : jsonResponse(403, errorBody('AUTH_7016'));
      default:
        return jsonResponse(404, errorBody('REQUEST_7004'));
    }
  };
  return { state, transport };
}

function device() {
  const clock = createFakeClock();
  const server = identityServer(clock);
  return { clock, server, make: testDevice({ transport: server.transport, clock }).make };
}

describe('DataService identity flows', () => {
  it('MFA: the password answers mfa_required, a wrong code is refused, the right one signs in', async () => {
    const { make } = device();
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    expect(await service.signIn(userOf(1).email, PASSWORD)).toMatchObject({ ok: false, mfa_required: true });
    expect(await service.session()).toBeNull();
    expect(await service.verifyMfa('000000')).toMatchObject({ ok: false, mfa_required: true });
    const ok = await service.verifyMfa(CODE);
    expect(ok).toMatchObject({ ok: true, session: { user: { id: userOf(1).id }, mfa_enabled: true } });
    expect((await service.session())?.scopes).toEqual(['default']);
  });

  it('first enrolment while signing in: the pending token enrols (email code required), then verify-mfa with the next code', async () => {
    const { make, server } = device();
    server.state.enrolled = false;
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    expect(await service.signIn(userOf(1).email, PASSWORD)).toMatchObject({ ok: false, mfa_required: true });
    expect(await service.pendingMfaStatus()).toEqual({ ok: true, totp_enrolled: false, factors: [], email: userOf(1).email });

    const started = await service.startTotp();
    expect(started).toMatchObject({ ok: true, setup: { authenticator_id: AUTHENTICATOR_ID, secret: 'JBSWY3DPEHPK3PXP' } });
    expect(await service.sendEmailCode()).toMatchObject({ ok: true });
    expect(server.state.emailsSent).toBe(1);
    // Every enrolment call rode on the half-scoped sign-in token (there is no session yet).
    const enrolCalls = server.state.calls.filter((c) => /totp|check-mfa|send-email-otp/.test(c.path));
    expect(enrolCalls.map((c) => c.token)).toEqual([PRE_MFA, PRE_MFA, PRE_MFA]);

    const missing = await service.verifyTotp(AUTHENTICATOR_ID, ENROL_CODE);
    expect(missing).toEqual({ ok: false, error: expect.objectContaining({ error_code: 'AUTH_7016', message: expect.stringContaining('emailed') }) });
    expect(await service.verifyTotp(AUTHENTICATOR_ID, ENROL_CODE, '000000')).toMatchObject({ ok: false, error: { error_code: 'PROFILE_7017' } });
    expect(await service.verifyTotp(AUTHENTICATOR_ID, '999999', EMAIL_CODE)).toMatchObject({ ok: false, error: { error_code: 'AUTH_7025' } });
    expect(await service.verifyTotp(AUTHENTICATOR_ID, ` ${ENROL_CODE} `, ` ${EMAIL_CODE} `)).toEqual({ ok: true });
    expect(server.state.verifyBodies.at(-1)).toEqual({ code: ENROL_CODE, email_code: EMAIL_CODE });
    expect(await service.session()).toBeNull();
    expect((await service.status()).phase).toBe('signed_out');

    const done = await service.verifyMfa(NEXT_CODE);
    expect(done).toMatchObject({ ok: true, session: { user: { id: userOf(1).id }, mfa_enabled: true } });
    expect(await service.pendingMfaStatus()).toMatchObject({ ok: false, error: { error_code: 'MFA_NOT_STARTED' } });
  });

  it('a sign-in without MFA drops an abandoned MFA step, so Settings enrols with the session token', async () => {
    const { make, server } = device();
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(userOf(1).email, PASSWORD);
    server.state.mfa = false;
    expect(await service.signIn(userOf(1).email, PASSWORD)).toMatchObject({ ok: true });
    await service.startTotp();
    expect(server.state.calls.filter((c) => c.path.endsWith('/totp')).map((c) => c.token)).toEqual([FULL]);
  });

  it('step-up: a sensitive call asks for it, the stepped-up token rides only on sensitive calls, for its lifetime', async () => {
    const { make, server, clock } = device();
    server.state.mfa = false;
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(userOf(1).email, PASSWORD);
    expect(await service.changePassword('new-password-123')).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(server.state.calls.some((c) => c.path.endsWith('change-password'))).toBe(false); // gated locally
    expect(await service.stepUp({ password: 'wrong' })).toMatchObject({ ok: false });
    expect(await service.stepUp({ password: PASSWORD })).toEqual({ ok: true });
    expect(await service.changePassword('new-password-123')).toEqual({ ok: true });
    expect(server.state.calls.find((c) => c.path.endsWith('change-password'))?.token).toBe(server.state.stepped);
    await service.webConfig();
    await flush();
    const flagsCall = server.state.calls.filter((c) => c.path === '/v1/auth/feature_flags').at(-1);
    expect(flagsCall?.token).toBe(FULL);

    await clock.advance(300_000);
    expect(await service.changePassword('new-password-456')).toMatchObject({ ok: false, step_up: 'sensitive' });
  });

  it('re-authenticates the same user in place and refuses another account', async () => {
    const { make, server } = device();
    server.state.mfa = false;
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(userOf(1).email, PASSWORD);
    server.state.user = userOf(2);
    expect(await service.reauthenticate(PASSWORD)).toMatchObject({ ok: false, error: { error_code: 'AUTH_7003' } });
    expect((await service.session() as BusinessSessionInfo | null)?.user.id).toBe(userOf(1).id);
    server.state.user = userOf(1);
    expect(await service.reauthenticate(PASSWORD)).toMatchObject({ ok: true, session: { user: { id: userOf(1).id } } });
  });

  it('a direct call answered 401 pauses the session (signed_out) without forgetting it', async () => {
    const { make, server } = device();
    server.state.mfa = false;
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    await service.signIn(userOf(1).email, PASSWORD);
    server.state.revoked = true;
    expect(await service.stepUp({ password: PASSWORD })).toMatchObject({ ok: false });
    await expect.poll(async () => (await service.status()).phase).toBe('signed_out');
    expect((await service.session() as BusinessSessionInfo | null)?.user.id).toBe(userOf(1).id);
    server.state.revoked = false;
    expect(await service.reauthenticate(PASSWORD)).toMatchObject({ ok: true });
    expect((await service.status()).phase).not.toBe('signed_out');
  });

  it('caches the feature flags in the mirror and reads them typed offline', async () => {
    const { make, server } = device();
    server.state.mfa = false;
    server.state.flags = { auditor_role: true, bulk_bill_creation_limit: true, unknown_flag: true };
    const first = make();
    await first.init({ baseUrl: 'http://api.test' });
    await first.signIn(userOf(1).email, PASSWORD);
    await expect.poll(async () => (await first.flags()).auditor_role).toBe(true);
    await first.dispose();

    server.state.offline = true;
    const again = make();
    await again.init({ baseUrl: 'http://api.test' });
    const flags = await again.flags();
    expect(flags.auditor_role).toBe(true);
    expect(flags.bulk_bill_creation_limit).toBe(FEATURE_FLAG_DEFAULTS.bulk_bill_creation_limit);
    expect(flags.security_login_history).toBe(true);
    expect(Object.keys(flags)).not.toContain('unknown_flag');
  });

  it.each([
    ['web', 10_000],
    ['mobile', 1_000],
  ] as const)('§4 token wait on %s: a token that never becomes fully scoped fails after %i ms', async (platform, waitMs) => {
    const { make, server, clock } = device();
    server.state.signUpToken = fakeToken(['low-risk']);
    const service = make();
    await service.init({ baseUrl: 'http://api.test', platform });
    let settled = false;
    const result = service
      .signUp({ first_name: 'A', last_name: 'B', business_name: 'C', email: 'a@b.test', password: 'long-enough-pass' })
      .finally(() => (settled = true));
    await clock.advance(waitMs - 100);
    expect(settled).toBe(false);
    await clock.advance(100);
    expect(await result).toMatchObject({ ok: false, error: { message: 'Failed to resolve authenticated state' } });
  });

  it('passkeys: the pending sign-in asks for options with its own token and finishes with an assertion; removal needs the step-up', async () => {
    const { make, server } = device();
    const service = make();
    await service.init({ baseUrl: 'http://api.test' });
    expect(await service.signIn(userOf(1).email, PASSWORD)).toMatchObject({ ok: false, mfa_required: true });
    const options = await service.passkeyAuthenticationOptions();
    expect(options).toMatchObject({ ok: true, options: { challenge: PASSKEY_CHALLENGE } });
    expect(server.state.calls.at(-1)).toEqual({ path: '/v1/auth/authentication/tokens/webauthn/authentication/options', token: PRE_MFA });
    expect(await service.verifyMfa({ webauthn: ASSERTION })).toMatchObject({ ok: true, session: { mfa_enabled: true } });
    expect(server.state.calls.find((c) => c.path === '/v1/auth/users/current/verify-mfa')?.token).toBe(PRE_MFA);

    const refused = await service.deletePasskey(PASSKEY_ID);
    expect(refused).toMatchObject({ ok: false, step_up: 'sensitive' });
    expect(await service.stepUp({ password: PASSWORD })).toEqual({ ok: true });
    expect(await service.deletePasskey(PASSKEY_ID)).toEqual({ ok: true });
    expect(server.state.calls.at(-1)?.token).toBe(server.state.stepped);
  });
});
