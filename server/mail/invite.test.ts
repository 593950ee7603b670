import { describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';

/**
 * The three ways a person is invited (the Team page, SCIM, an HRIS import) send the one invite
 * template: same subject and words, each naming who invited them (the admin, or the integration).
 */
async function stepUp(app: Hono, token: string): Promise<string> {
  const res = await request(app, 'POST', '/v1/auth/users/current/step-up', { token, body: { password: FIXTURE_PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return res.body.id_token as string;
}

const HEADER = 'Employee ID,Work Email,First Name,Last Name,Status';
const CONNECT = { provider: 'BambooHR', mode: 'upload', invite_new_hires: true, suspend_leavers: false, auto_apply: false, default_role: 'BUSINESS_USER' };

describe.each(await testDatabases())('one invite mail for every invite path (%s)', (kind) => {
  const t = useTestApp(kind, { devOutbox: true, now: () => Date.UTC(2026, 5, 1, 12) });
  type Mail = { subject: string; body: string };
  const mailTo = async (email: string) => {
    const dev = await t.db.query<Mail>('SELECT subject, body FROM dev_outbox WHERE recipient = $1 ORDER BY id', [email]);
    const queued = await t.db.query<{ template: string }>('SELECT template FROM mail_outbox WHERE recipient = $1', [email]);
    expect(dev).toHaveLength(1);
    expect(queued).toEqual([{ template: 'invite' }]);
    return dev[0]!;
  };

  it('Team page, SCIM and HRIS send the same invite template, naming the admin or the integration', async () => {
    const f = await makeBusiness(t.db, { transactions: 0, name: 'Acme Robotics' });
    const tag = f.businessId.slice(0, 8);
    const admin = await signIn(t.app, f.email('admin'));

    const teamEmail = `team.${tag}@example.com`;
    const invited = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
      token: admin, body: { email: teamEmail, first_name: 'Tia', last_name: 'Team', role: 'BUSINESS_USER' },
    });
    expect(invited.status, invited.text).toBe(201);

    const put = await request(t.app, 'PUT', '/v1/auth/scim/integration', { token: await stepUp(t.app, admin), body: { name: 'Okta' } });
    expect(put.status, put.text).toBe(201);
    const scimEmail = `scim.${tag}@example.com`;
    const created = await t.app.request('/scim/v2/Users', {
      method: 'POST', headers: { authorization: `Bearer ${put.body.token}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: scimEmail, name: { givenName: 'Sam', familyName: 'Scim' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);

    expect((await request(t.app, 'PUT', '/v1/auth/hris/connection', { token: admin, body: CONNECT })).status).toBe(200);
    const hrisEmail = `hris.${tag}@example.com`;
    const upload = await request(t.app, 'POST', '/v1/auth/hris/imports?file_name=people.csv', {
      token: admin, rawBody: `${HEADER}\r\nE9,${hrisEmail},Hana,Hris,active`, headers: { 'content-type': 'text/csv' },
    });
    expect(upload.body.status, upload.text).toBe('ready');
    expect((await request(t.app, 'POST', `/v1/auth/hris/imports/${upload.body.id}/apply`, { token: admin })).body.status).toBe('applied');

    const team = await mailTo(teamEmail);
    const scim = await mailTo(scimEmail);
    const hris = await mailTo(hrisEmail);
    for (const m of [team, scim, hris]) {
      expect(m.subject).toBe('You are invited to join Acme Robotics on Ledgerline');
      expect(m.body).toMatch(/\n\nAccept the invite: http:\/\/[^\s]+\/invites\/[A-Za-z0-9_-]+ \(valid until \d{1,2} June 2026\)\.\n\n/);
      expect(m.body).toContain('You got this email because Acme Robotics added this address to its team.');
      expect(m.body).not.toMatch(/undefined|null|T\d\d:\d\d/);
    }
    expect(team.body).toMatch(new RegExp(`^Admin Fixture${tag} invited you to join Acme Robotics on Ledgerline`));
    expect(scim.body).toMatch(/^Acme Robotics added you to Ledgerline through its Okta connection\./);
    expect(hris.body).toMatch(/^Acme Robotics added you to Ledgerline through its BambooHR connection\./);
    // Apart from who invited and the link, the three are one text.
    const shape = (m: Mail) => m.body.split('\n\n').slice(1).join('\n\n').replace(/\/invites\/[A-Za-z0-9_-]+/, '/invites/…');
    expect(shape(scim)).toBe(shape(team));
    expect(shape(hris)).toBe(shape(team));

    // A resend from the Team page is the same mail again.
    const resent = await request(t.app, 'POST', `/v1/auth/businesses/users/${invited.body.user.id}/resend-invite`, { token: admin });
    expect(resent.status, resent.text).toBe(200);
    const again = await t.db.query<Mail>('SELECT subject, body FROM dev_outbox WHERE recipient = $1 ORDER BY id', [teamEmail]);
    expect(again).toHaveLength(2);
    expect(shape(again[1]!)).toBe(shape(team));
  });
});
