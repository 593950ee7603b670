import { describe, expect, it } from 'vitest';
import { errorBody } from '../../schema/errors.ts';
import { fakeToken, jsonResponse } from '../../sync/testing.ts';
import { signedInAdmin } from '../test-fixtures.ts';
import { methodAndPath, signedInWorker } from '../testing/signed-in-worker.ts';
import { TEAM_OFFLINE } from './team.ts';

const { user: USER } = signedInAdmin();
const INVITE_TOKEN = 'i'.repeat(43);
const LINK_TOKEN = 'l'.repeat(43);

/** A worker whose server answers the team and link calls; `sent` records method and path. */
const worker = (answer: (method: string, path: string, body: unknown) => Response | null, signIn = true) =>
  signedInWorker({ record: methodAndPath, route: (r) => answer(r.method, r.path, r.body), signIn });

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
