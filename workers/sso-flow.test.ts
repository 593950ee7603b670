import { describe, expect, it } from 'vitest';
import { errorBody } from '../schema/errors.ts';
import { fakeToken, jsonResponse } from '../sync/testing.ts';
import type { Transport } from '../sync/ports.ts';
import { signedInAdmin } from './test-fixtures.ts';
import { startWorker } from './testing/signed-in-worker.ts';
import { SSO_OFFLINE } from './handlers/sso.ts';
import type { BusinessSessionInfo } from './contracts/session.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY } = signedInAdmin();
const CODE = 'a'.repeat(32);
const PRE_MFA = fakeToken([], { ramp_mfa_required: true, ramp_mfa_authed: false, iat: Date.UTC(2026, 0, 1) / 1000 });
const FULL = fakeToken(['default'], { ramp_mfa_required: false });

/** A scripted server for the SSO calls (our transport port): what each call carried, and one-time codes. */
function ssoServer() {
  const state = { mfa: false, offline: false, used: new Set<string>(), bodies: [] as { path: string; body: unknown; token: string | null }[] };
  const transport: Transport = async (input, init) => {
    if (state.offline) throw new TypeError('offline');
    const url = new URL(String(input));
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    state.bodies.push({ path: url.pathname, body, token: new Headers(init?.headers).get('RAMP-ID-TOKEN') });
    switch (url.pathname) {
      case '/v1/public/sso/start':
        return (body as { email: string }).email.endsWith('@demo.test')
          ? jsonResponse(200, { authorization_url: 'https://idp.example/authorize?state=s' })
          : jsonResponse(403, errorBody('AUTH_7022', 'Single sign-on is not set up for this email.'));
      case '/v1/public/sso/complete': {
        const { code } = body as { code: string };
        if (state.used.has(code)) return jsonResponse(401, errorBody('AUTH_7001', 'This sign-in link was already used.'));
        state.used.add(code);
        return jsonResponse(200, { id_token: state.mfa ? PRE_MFA : FULL, mfa_required: state.mfa, redirect: '/reimbursements' });
      }
      case '/v1/auth/users/current/verify-mfa':
        return jsonResponse(200, { id_token: FULL, mfa_required: true });
      case '/v1/auth/identity':
        return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
      case '/v1/auth/feature_flags':
        return jsonResponse(200, { flags: {} });
      default:
        return jsonResponse(404, errorBody('REQUEST_7004'));
    }
  };
  return { state, transport };
}

async function device() {
  const server = ssoServer();
  const service = await startWorker({ transport: server.transport });
  return { service, server };
}

describe('single sign-on in the data worker', () => {
  it('start answers where to send the browser, or the server’s refusal; the redirect goes along', async () => {
    const { service, server } = await device();
    expect(await service.ssoStart('ada@demo.test', '/bills')).toEqual({ ok: true, authorization_url: 'https://idp.example/authorize?state=s' });
    expect(server.state.bodies.at(-1)).toMatchObject({ body: { email: 'ada@demo.test', redirect: '/bills' }, token: null });
    expect(await service.ssoStart('ada@other.test')).toMatchObject({ ok: false, error: { error_code: 'AUTH_7022', message: 'Single sign-on is not set up for this email.' } });
  });

  it('complete: the code becomes the stored session, with the redirect; a second use is refused', async () => {
    const { service } = await device();
    const done = await service.ssoComplete(CODE);
    expect(done).toMatchObject({ ok: true, session: { user: { id: USER.id } }, redirect: '/reimbursements' });
    expect((await service.session() as BusinessSessionInfo | null)?.user.id).toBe(USER.id);
    expect(await service.ssoComplete(CODE)).toMatchObject({ ok: false, redirect: null, error: { message: 'This sign-in link was already used.' } });
  });

  it('complete with MFA: the second factor comes next, as after a password', async () => {
    const { service, server } = await device();
    server.state.mfa = true;
    expect(await service.ssoComplete(CODE)).toMatchObject({ ok: false, mfa_required: true, redirect: '/reimbursements' });
    expect(await service.session()).toBeNull();
    expect(await service.verifyMfa('123456')).toMatchObject({ ok: true, session: { user: { id: USER.id } } });
    expect(server.state.bodies.find((b) => b.path.endsWith('verify-mfa'))?.token).toBe(PRE_MFA);
  });

  it('offline: nothing is sent and the page is told so', async () => {
    const { service, server } = await device();
    await service.setOnline(false);
    const before = server.state.bodies.length;
    expect(await service.ssoProviders()).toEqual(SSO_OFFLINE);
    expect(await service.ssoStart('ada@demo.test')).toEqual(SSO_OFFLINE);
    expect(server.state.bodies.length).toBe(before);
  });
});
