import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { tokenClaimsSchema } from '../../schema/api/scopes.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, refusal, request, signIn, type Fixture } from '../test-fixtures.ts';
import { insertTx, policyBody } from './expense-policies-test-kit.ts';

/**
 * Issue 29 reminders: each person reminded gets one mail whose link carries a
 * `missing-items-restricted` token in its fragment (a session of its own, a week, ended by
 * sign-out-all), and one in-app notification (`missing_items`, `reminder:<day>`) that never holds
 * the token; a person who muted the kind's mail gets the notification only, and no token is minted.
 */
const NOW = '2026-11-20T12:00:00Z';
const DAY = NOW.slice(0, 10);
const MISSING = '/v1/auth/users/current/missing-items';

describe.each(await testDatabases())('missing-item reminders on %s', (kind) => {
  const clock = Date.parse(NOW);
  const t = useTestApp(kind, { now: () => clock, devOutbox: true });
  let f: Fixture;
  let admin: string;

  beforeAll(async () => {
    f = await makeBusiness(t.db, { transactions: 0 });
    admin = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'POST', '/v1/auth/expense-policies', { token: admin, body: policyBody() })).status).toBe(201);
    for (const role of ['employee', 'teammate'] as const) await insertTx(t.db, f, role, { amount: 12000, at: `${DAY}T09:00:00Z` });
  });

  const mailsTo = (email: string) =>
    t.db.query<{ subject: string; body: string }>('SELECT subject, body FROM dev_outbox WHERE recipient = $1', [email]);
  const notificationsOf = (userId: string) =>
    t.db.query<{ kind: string; event_key: string; path: string; title: string; body: string; actor_id: string }>(
      'SELECT kind, event_key, path, title, body, actor_id::text FROM notifications WHERE owner_id = $1', [userId],
    );
  const sessionsOf = async (role: 'employee' | 'teammate') =>
    Number((await t.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM sessions s JOIN spend_users u ON u.identity_id = s.identity_id WHERE u.id = $1', [f.users[role]],
    ))[0]!.n);

  it('mails one link with a restricted token in its fragment and notifies in-app once', async () => {
    const full = await signIn(t.app, f.email('employee'));
    const sessionsBefore = await sessionsOf('employee');
    const res = await request(t.app, 'POST', '/v1/auth/expense-policies/reminders', { token: admin, body: { user_ids: [f.users.employee] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.reminded).toEqual([{ user_id: f.users.employee, item_count: 1 }]);
    const mails = await mailsTo(f.email('employee'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('You have 1 item missing a receipt, memo or coding');
    expect(mails[0]!.body).toMatch(/^Hi \S+, 1 item of your card charges and claims \(\$120\.00 in all\) still needs /);
    const match = /\/missing-items#token=([^\s]+)/.exec(mails[0]!.body);
    expect(match, mails[0]!.body).not.toBeNull();
    const token = decodeURIComponent(match![1]!);
    const claims = tokenClaimsSchema.strict().parse(decodeJwt(token));
    expect(claims).toMatchObject({ ramp_user_uuid: f.users.employee, ramp_access_scopes: ['missing-items-restricted'], business_id: f.businessId });
    expect(claims.ramp_session_id).not.toBe(decodeJwt(full).ramp_session_id);
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    expect(await sessionsOf('employee')).toBe(sessionsBefore + 1);

    expect(await notificationsOf(f.users.employee)).toEqual([expect.objectContaining({
      kind: 'missing_items', event_key: `reminder:${DAY}`, path: '/missing-items', actor_id: f.users.admin,
      title: 'You have 1 item missing a receipt, memo or coding',
    })]);
    expect(JSON.stringify(await notificationsOf(f.users.employee))).not.toContain(token.slice(-20));

    const listed = await request(t.app, 'GET', MISSING, { token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.total_count).toBe(1);
    // Sign-out-all ends the link too (it is the person's session).
    expect((await request(t.app, 'POST', '/v1/auth/users/current/sign-out-all-sessions', { token: full, body: {} })).status).toBe(200);
    expect(refusal(await request(t.app, 'GET', MISSING, { token }))).toEqual([401, 'AUTH_7003']);
  });

  it('a person who muted missing-items mail gets the notification only, and no token is minted', async () => {
    await t.db.query(`INSERT INTO notification_preferences (business_id, user_id, email_muted) VALUES ($1, $2, '{missing_items}')`, [f.businessId, f.users.teammate]);
    const sessionsBefore = await sessionsOf('teammate');
    const res = await request(t.app, 'POST', '/v1/auth/expense-policies/reminders', { token: admin, body: { user_ids: [f.users.teammate] } });
    expect(res.body.reminded).toEqual([{ user_id: f.users.teammate, item_count: 1 }]);
    expect(await mailsTo(f.email('teammate'))).toEqual([]);
    expect(await notificationsOf(f.users.teammate)).toEqual([expect.objectContaining({ kind: 'missing_items', event_key: `reminder:${DAY}` })]);
    expect(await sessionsOf('teammate')).toBe(sessionsBefore);
  });
});
