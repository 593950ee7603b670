import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { errorBody } from '../../schema/errors.ts';
import { createFakeClock, fakeToken, jsonResponse } from '../../sync/testing.ts';
import type { Transport } from '../../sync/ports.ts';
import { createDataService, type DataService } from '../data-service.ts';
import { soleLeader } from '../leader.ts';
import { SessionStore } from '../session-store.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { TEAM_OFFLINE } from './team.ts';
import { mirrorStorage } from '../db.ts';

const { user: USER, business: BUSINESS, identity: IDENTITY } = signedInAdmin();
const INVITE_TOKEN = 'i'.repeat(43);
const LINK_TOKEN = 'l'.repeat(43);

const services: DataService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
});

/** A worker whose server answers the team and link calls; `sent` records method and path. */
async function worker(answer: (method: string, path: string, body: unknown) => Response | null, signIn = true) {
  const sent: string[] = [];
  const transport: Transport = async (input, init) => {
    const url = new URL(String(input));
    const method = init?.method ?? 'GET';
    // Fetched after every sign-in; not a team call.
    if (url.pathname === '/v1/auth/feature_flags') return jsonResponse(200, {});
    if (url.pathname === '/v1/public/sign-in') return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
    if (url.pathname === '/v1/auth/identity') return jsonResponse(200, { identity: IDENTITY, user: USER, business: BUSINESS });
    sent.push(`${method} ${url.pathname}`);
    return answer(method, url.pathname, init?.body ? JSON.parse(String(init.body)) : null) ?? jsonResponse(404, errorBody('REQUEST_7004'));
  };
  const idb = new IDBFactory();
  const service = createDataService({
    sessionStore: new SessionStore({ indexedDB: idb, IDBKeyRange }),
    transport,
    clock: createFakeClock(),
    elector: soleLeader,
    storage: mirrorStorage({ indexedDB: idb, IDBKeyRange }),
    multiInstance: false,
    sync: false,
    defer: (fn) => fn(),
  });
  services.push(service);
  await service.init({ baseUrl: 'http://api.test' });
  if (signIn) await service.signIn(USER.email, 'demo-password-1');
  return { service, sent };
}

describe('team calls', () => {
  it('refuses offline before sending anything', async () => {
    const { service, sent } = await worker(() => null);
    await service.setOnline(false);
    expect(await service.suspendUser(USER.id)).toEqual(TEAM_OFFLINE);
    expect(await service.sendSignInLink('a@b.test')).toEqual(TEAM_OFFLINE);
    expect(sent).toEqual([]);
  });

  it('passes the server’s refusal in its words, and the update body as given', async () => {
    const bodies: unknown[] = [];
    const { service, sent } = await worker((method, path, body) => {
      if (method === 'PATCH') bodies.push(body);
      return method === 'PATCH' ? jsonResponse(422, errorBody('REQUEST_7001', 'A person cannot be their own manager.', { manager_id: 'A person cannot be their own manager.' })) : null;
    });
    const r = await service.updateUser(USER.id, { manager_id: USER.id, department_id: null });
    expect(r).toMatchObject({ ok: false, error: { message: 'A person cannot be their own manager.', errors: { manager_id: expect.any(String) } } });
    expect(sent).toEqual([`PATCH /v1/auth/businesses/users/${USER.id}`]);
    expect(bodies).toEqual([{ manager_id: USER.id, department_id: null }]);
  });

  it('signed out: looks an invite up, accepts it and signs in; a sign-in link’s 204 is a success', async () => {
    const invite = { email: 'new@acme.test', first_name: 'New', business_name: 'Acme', inviter_name: 'Ada Admin', status: 'pending', existing_account: false, expires_at: '2026-12-01T00:00:00.000Z' };
    const { service, sent } = await worker((method, path) => {
      if (path === `/v1/public/invites/${INVITE_TOKEN}`) return jsonResponse(200, invite);
      if (path === `/v1/public/invites/${INVITE_TOKEN}/accept`) return jsonResponse(200, { id_token: fakeToken(['default']), mfa_required: false });
      if (path === '/v1/public/passwordless/send') return new Response(null, { status: 204 });
      if (path === '/v1/public/passwordless/sign-in') return jsonResponse(422, errorBody('PROFILE_7016'));
      return null;
    }, false);
    expect(await service.inviteDetails(INVITE_TOKEN)).toEqual({ ok: true, invite });
    expect(await service.sendSignInLink('new@acme.test')).toEqual({ ok: true });
    expect(await service.signInWithLink(LINK_TOKEN)).toMatchObject({ ok: false, error: { error_code: 'PROFILE_7016' } });
    const accepted = await service.acceptInvite(INVITE_TOKEN, 'a-long-password');
    expect(accepted).toMatchObject({ ok: true, session: { user: { id: USER.id } } });
    expect(sent).toContain(`POST /v1/public/invites/${INVITE_TOKEN}/accept`);
  });
});
