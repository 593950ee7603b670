import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { refusal, request } from '../test-fixtures.ts';
import { addMember, applyForFirm, lastMail, makeFirm } from './external-firm-test-kit.ts';

describe.each(await testDatabases())('external firms: application and team on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  it('a firm application with a clean screening makes the firm at once, the applicant its admin', async () => {
    const firm = await makeFirm(t.app, t.db, 'Acme CPAs');
    const view = await request(t.app, 'GET', '/v1/auth/external-firm', { token: firm.adminToken });
    expect(view.body).toMatchObject({ firm: { name: 'Acme CPAs', status: 'ACTIVE' }, me: { role: 'EXTERNAL_FIRM_ADMIN', first_name: 'Ada' } });
    const [identity] = await t.db.query<{ password_hash: string; verified: boolean }>(
      'SELECT password_hash, email_verified_at IS NOT NULL AS verified FROM identities WHERE lower(email) = $1', [firm.adminEmail],
    );
    expect(identity).toEqual({ password_hash: '!invited', verified: true });
    // A business call from the console token is refused by the surface gate.
    expect(refusal(await request(t.app, 'GET', '/v1/auth/transactions', { token: firm.adminToken }))).toEqual([403, 'SURFACE_7001']);
  });

  it('a sanctions hit waits in MANUAL_REVIEW with an application token only', async () => {
    const applied = await applyForFirm(t.app, t.db, 'Sanctionedov Advisory', { first_name: 'Boris Q.', last_name: 'Sanctionedov' });
    expect(applied.surface).toBe('ADVISOR_CONSOLE_APPLICATION');
    const app = await request(t.app, 'GET', '/v1/auth/external-firm/application', { token: applied.token });
    expect(app.body).toMatchObject({ status: 'MANUAL_REVIEW', firm_id: null });
    expect(refusal(await request(t.app, 'GET', '/v1/auth/external-firm', { token: applied.token }))).toEqual([403, 'SURFACE_7001']);
    const firms = await t.db.query('SELECT 1 FROM external_firms WHERE name = $1', ['Sanctionedov Advisory']);
    expect(firms).toHaveLength(0);
  });

  it('apply answers the same for a known address; a wrong code is refused and creates nothing', async () => {
    const firm = await makeFirm(t.app, t.db);
    const again = await request(t.app, 'POST', '/v1/public/external-firm/apply', {
      body: { firm_name: 'Second Firm', email: firm.adminEmail, first_name: 'Ada', last_name: 'Ledger' },
    });
    expect(again.status).toBe(204);
    const code = /is (\d{6})\./.exec((await lastMail(t.db, firm.adminEmail)).body)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await request(t.app, 'POST', '/v1/public/external-firm/apply/verify', { body: { email: firm.adminEmail, code: wrong } });
    expect(refusal(res)).toEqual([422, 'PROFILE_7017']);
    expect(await t.db.query('SELECT 1 FROM external_firms WHERE name = $1', ['Second Firm'])).toHaveLength(0);
    const unknown = await request(t.app, 'POST', '/v1/public/external-firm/apply/verify', { body: { email: 'nobody-x@firm.test', code } });
    expect(refusal(unknown)).toEqual([422, 'PROFILE_7017']);
  });

  it('invites: a member joins by the mailed link; members cannot administer; resend and withdraw', async () => {
    const firm = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, firm);
    const view = await request<{ members: { id: string }[] }>(t.app, 'GET', '/v1/auth/external-firm', { token: firm.adminToken });
    expect(view.body.members.map((m) => m.id).sort()).toEqual([firm.adminFirmUserId, member.firmUserId].sort());
    const byMember = await request(t.app, 'POST', '/v1/auth/external-firm/invites', { token: member.token, body: { email: 'x@firm.test', role: 'EXTERNAL_FIRM_USER' } });
    expect(refusal(byMember)).toEqual([403, 'FORBIDDEN_7003']);

    const invited = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/invites', {
      token: firm.adminToken, body: { email: 'Later@Firm.test', role: 'EXTERNAL_FIRM_USER' },
    });
    const twice = await request(t.app, 'POST', '/v1/auth/external-firm/invites', { token: firm.adminToken, body: { email: 'later@firm.test', role: 'EXTERNAL_FIRM_USER' } });
    expect(refusal(twice)).toEqual([422, 'REQUEST_7001']);
    const firstLink = /\/console\/join#token=([A-Za-z0-9_-]+)/.exec((await lastMail(t.db, 'later@firm.test')).body)![1]!;
    const resent = await request(t.app, 'PUT', `/v1/auth/external-firm/invites/${invited.body.id}/resend`, { token: firm.adminToken });
    expect(resent.body).toMatchObject({ status: 'OPEN', resend_count: 1 });
    const stale = await request(t.app, 'POST', `/v1/public/external-firm/invites/${firstLink}/accept`, {
      body: { password: 'member-password-1', first_name: 'L', last_name: 'Ater' },
    });
    expect(refusal(stale)).toEqual([404, 'REQUEST_7004']);
    const withdrawn = await request(t.app, 'DELETE', `/v1/auth/external-firm/invites/${invited.body.id}`, { token: firm.adminToken });
    expect(withdrawn.body).toMatchObject({ status: 'REVOKED' });
  });

  it('accept-and-create-identity: only the invite\'s own identity, on its session', async () => {
    const firm = await makeFirm(t.app, t.db);
    const other = await makeFirm(t.app, t.db);
    await request(t.app, 'POST', '/v1/auth/external-firm/invites', { token: firm.adminToken, body: { email: other.adminEmail, role: 'EXTERNAL_FIRM_ADMIN' } });
    const link = /\/console\/join#token=([A-Za-z0-9_-]+)/.exec((await lastMail(t.db, other.adminEmail)).body)![1]!;
    const stranger = await makeFirm(t.app, t.db);
    const wrong = await request(t.app, 'POST', `/v1/auth/external-firm/invites/${link}/accept-and-create-identity`, {
      token: stranger.adminToken, body: { first_name: 'S', last_name: 'T' },
    });
    expect(refusal(wrong)).toEqual([422, 'AUTH_7018']);
    const joined = await request<{ id_token: string }>(t.app, 'POST', `/v1/auth/external-firm/invites/${link}/accept-and-create-identity`, {
      token: other.adminToken, body: { first_name: 'Olga', last_name: 'Other' },
    });
    expect(joined.status).toBe(200);
    const view = await request(t.app, 'GET', '/v1/auth/external-firm', { token: joined.body.id_token });
    expect(view.body).toMatchObject({ firm: { id: firm.firmId }, me: { role: 'EXTERNAL_FIRM_ADMIN', first_name: 'Olga' } });
  });

  it('removing members: never the last admin (FIRM_7004); a removed member\'s token dies (4014)', async () => {
    const firm = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, firm);
    const last = await request(t.app, 'DELETE', `/v1/auth/external-firm/users/${firm.adminFirmUserId}`, { token: firm.adminToken });
    expect(refusal(last)).toEqual([409, 'FIRM_7004']);
    const removed = await request(t.app, 'DELETE', `/v1/auth/external-firm/users/${member.firmUserId}`, { token: firm.adminToken });
    expect(removed.status).toBe(200);
    expect(refusal(await request(t.app, 'GET', '/v1/auth/external-firm', { token: member.token }))).toEqual([404, '4014']);
  });

  it('firm isolation: another firm\'s ids answer 404 and change nothing', async () => {
    const f1 = await makeFirm(t.app, t.db);
    const f2 = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, f1);
    const invite = await request<{ id: string }>(t.app, 'POST', '/v1/auth/external-firm/invites', { token: f1.adminToken, body: { email: 'iso@firm.test', role: 'EXTERNAL_FIRM_USER' } });
    for (const [method, path] of [
      ['PUT', `/v1/auth/external-firm/invites/${invite.body.id}/resend`],
      ['DELETE', `/v1/auth/external-firm/invites/${invite.body.id}`],
      ['DELETE', `/v1/auth/external-firm/users/${member.firmUserId}`],
    ] as const) {
      expect(refusal(await request(t.app, method, path, { token: f2.adminToken }))).toEqual([404, 'REQUEST_7004']);
    }
    const [row] = await t.db.query<{ revoked_at: unknown; resend_count: number }>('SELECT revoked_at, resend_count FROM external_firm_invites WHERE id = $1', [invite.body.id]);
    expect(row).toEqual({ revoked_at: null, resend_count: 0 });
    const [user] = await t.db.query<{ status: string }>('SELECT status FROM external_firm_users WHERE id = $1', [member.firmUserId]);
    expect(user?.status).toBe('ACTIVE');
  });
});
