import { describe, expect, it } from 'vitest';
import { financingApplicationMembership } from '../auth/surfaces/applicant.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { refusal, request } from '../test-fixtures.ts';
import { appCall, applicationCode, startApplication } from './application-test-kit.ts';

let n = 0;
const fresh = () => `invitee-${Date.now()}-${++n}@example.test`;

/** The invite token of the newest invite mail to `email`. */
async function inviteToken(app: Parameters<typeof applicationCode>[0], email: string): Promise<string> {
  const res = await request<{ messages: { body: string }[] }>(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
  const token = res.body.messages.map((m) => /invite=([A-Za-z0-9_-]+)/.exec(m.body)?.[1]).find(Boolean);
  if (!token) throw new Error(`no invite to ${email}`);
  return token;
}

describe.each(await testDatabases())('application invites and membership on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function verifyWithInvite(email: string, token: string) {
    await request(t.app, 'POST', '/v1/public/application/start', { body: { email, first_name: 'Grace', last_name: 'Hopper' } });
    return request(t.app, 'POST', '/v1/public/application/verify', { body: { email, code: await applicationCode(t.app, email), invite_token: token } });
  }

  it('an invited owner joins the application as a co-applicant with the mailed link; a revoked or reused invite is 404', async () => {
    const owner = await startApplication(t.app, fresh());
    const email = fresh();
    const invited = await appCall(t.app, owner, 'POST', '/invite-applicant', { email });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.invites).toMatchObject([{ email }]);
    const token = await inviteToken(t.app, email);
    expect(refusal(await verifyWithInvite(fresh(), token))).toEqual([404, 'REQUEST_7004']);
    const joined = await verifyWithInvite(email, token);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.body.financing_application_id).toBe(owner.appId);
    const co = { token: joined.body.id_token, appId: owner.appId };
    expect((await appCall(t.app, co, 'GET', '')).body.id).toBe(owner.appId);
    expect(await t.db.query("SELECT role FROM financing_application_users WHERE financing_application_id = $1 ORDER BY role", [owner.appId]))
      .toEqual([{ role: 'APPLICANT' }, { role: 'CO_APPLICANT' }]);
    expect(refusal(await verifyWithInvite(email, token))).toEqual([404, 'REQUEST_7004']);

    const second = fresh();
    const again = await appCall(t.app, owner, 'POST', '/invite-applicant', { email: second });
    const gone = await appCall(t.app, owner, 'DELETE', `/invite/${again.body.invites.find((i: { email: string }) => i.email === second).id}`);
    expect(gone.body.invites).toEqual([]);
    expect(refusal(await verifyWithInvite(second, await inviteToken(t.app, second)))).toEqual([404, 'REQUEST_7004']);
  });

  it('membership: held while a user of a live application; choices labelled by §3, detail Applicant; withdrawn is not held', async () => {
    const who = await startApplication(t.app, fresh());
    const [user] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM financing_application_users WHERE financing_application_id = $1', [who.appId]);
    const claim = { kind: 'FINANCING_APPLICATION' as const, financing_application_id: who.appId };
    expect(await financingApplicationMembership.holds(t.db, user!.identity_id, claim)).toBe(true);
    expect(await financingApplicationMembership.holds(t.db, user!.identity_id, { ...claim, financing_application_id: 'not-a-uuid' })).toBe(false);
    const choices = await financingApplicationMembership.choices(t.db, user!.identity_id);
    expect(choices).toHaveLength(1);
    expect(choices[0]).toMatchObject({ target: claim, detail: 'Applicant' });
    expect(choices[0]!.label).toMatch(/^New application \(/);
    await appCall(t.app, who, 'PATCH', '', { business_name: 'Analytical Engines' });
    expect((await financingApplicationMembership.choices(t.db, user!.identity_id))[0]!.label).toBe('Analytical Engines');
    await t.db.query("UPDATE financing_applications SET status = 'WITHDRAWN' WHERE id = $1", [who.appId]);
    expect(await financingApplicationMembership.holds(t.db, user!.identity_id, claim)).toBe(false);
    expect(refusal(await appCall(t.app, who, 'GET', ''))[0]).toBe(404);
  });
});
