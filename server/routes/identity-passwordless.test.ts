import { describe, expect, it } from 'vitest';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn } from '../test-fixtures.ts';
import { claimsOf, testClock } from './identity-test-kit.ts';
import { PASSWORDLESS_TTL_MS } from './identity-passwordless.ts';
import type { Hono } from 'hono';
import { INVITE_TTL_MS } from '../domain/admin-users.ts';
import { DEFAULT_QUOTAS } from '../auth/quotas.ts';

const clock = testClock();
const RECENT_MS = 5 * 60 * 1000;

/** The newest mail to `email` matching `re`, first capture group. */
async function fromOutbox(app: Hono, email: string, re: RegExp): Promise<string> {
  const res = await request<{ messages: { body: string }[] }>(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
  for (const m of res.body.messages) {
    const match = re.exec(m.body);
    if (match?.[1]) return match[1];
  }
  throw new Error(`no matching mail to ${email}: ${res.text}`);
}
const LINK_RE = /\/passwordless\?token=([A-Za-z0-9_-]+)/;
const INVITE_RE = /\/invites\/([A-Za-z0-9_-]+)/;

describe.each(await testDatabases())('passwordless links and accept-and-create-identity on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });

  const sendLink = (email: string) => request(t.app, 'POST', '/v1/public/passwordless/send', { body: { email } });
  const linkSignIn = (token: string) => request(t.app, 'POST', '/v1/public/passwordless/sign-in', { body: { token } });
  const validate = (idToken: string, token: string) =>
    request(t.app, 'POST', '/v1/auth/authentication/passwordless/validate', { token: idToken, body: { token } });
  const errorCode = (res: { body: { error_v2?: { error_code?: string } } }) => res.body.error_v2?.error_code;

  it('mails a single-use link that signs in like a password would', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const email = f.email('employee');
    expect((await sendLink(email)).status).toBe(204);
    const link = await fromOutbox(t.app, email, LINK_RE);
    const [stored] = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM passwordless_links ORDER BY created_at DESC LIMIT 1');
    expect(stored?.token_hash).not.toContain(link);

    const res = await linkSignIn(link);
    expect(res.status).toBe(200);
    expect(res.body.mfa_required).toBe(false);
    expect(claimsOf(res.body.id_token)).toMatchObject({ ramp_user_uuid: f.users.employee, business_id: f.businessId, ramp_access_scopes: ['default'] });
    expect((await request(t.app, 'GET', '/v1/auth/identity', { token: res.body.id_token })).status).toBe(200);

    const reused = await linkSignIn(link);
    expect([reused.status, errorCode(reused)]).toEqual([422, 'PROFILE_7017']);
  });

  it('answers 204 for an unknown email and mails nothing (no account oracle)', async () => {
    const email = `nobody-${Date.now()}@nowhere.test`;
    expect((await sendLink(email)).status).toBe(204);
    const outbox = await request(t.app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
    expect(outbox.body.messages).toEqual([]);
  });

  it('refuses an expired link (PROFILE_7016) and an unknown one (PROFILE_7017)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await sendLink(f.email('admin'));
    const link = await fromOutbox(t.app, f.email('admin'), LINK_RE);
    clock.advance(PASSWORDLESS_TTL_MS + 1000);
    expect(errorCode(await linkSignIn(link))).toBe('PROFILE_7016');
    expect(errorCode(await linkSignIn('x'.repeat(43)))).toBe('PROFILE_7017');
  });

  it('keeps MFA: a required MFA gives the half-scoped token', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await t.db.query('UPDATE identities SET mfa_required = true WHERE lower(email) = $1', [f.email('manager')]);
    await sendLink(f.email('manager'));
    const res = await linkSignIn(await fromOutbox(t.app, f.email('manager'), LINK_RE));
    expect(res.body.mfa_required).toBe(true);
    expect(claimsOf(res.body.id_token).ramp_access_scopes).toEqual([]);
  });

  it('has a quota of links per address asked for (429 QUOTA_EXCEEDED)', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    for (let i = 0; i < DEFAULT_QUOTAS.signInLinksPerEmailPerHour; i++) expect((await sendLink(f.email('bookkeeper'))).status).toBe(204);
    const res = await sendLink(f.email('bookkeeper'));
    expect([res.status, errorCode(res)]).toEqual([429, 'QUOTA_EXCEEDED']);
  });

  it('validates a link only with a token issued within 5 minutes, and tells whose it is', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    await sendLink(f.email('teammate'));
    const link = await fromOutbox(t.app, f.email('teammate'), LINK_RE);
    const { id_token } = (await linkSignIn(link)).body;
    expect((await validate(id_token, link)).body).toEqual({ valid: true, email: f.email('teammate') });
    const other = await signIn(t.app, f.email('outsider'));
    expect((await validate(other, link)).body).toEqual({ valid: false, email: f.email('outsider') });
    expect(errorCode(await validate(id_token, 'y'.repeat(43)))).toBe('PROFILE_7017');
    clock.advance(RECENT_MS + 1000);
    const old = await validate(id_token, link);
    expect([old.status, errorCode(old)]).toEqual([403, 'AUTH_7016']);
  });

  describe('accept-and-create-identity', () => {
    /** Business B's admin invites `email`; answers the invite token from the outbox. */
    async function inviteTo(email: string) {
      const b = await makeBusiness(t.db, { transactions: 0 });
      const admin = await signIn(t.app, b.email('admin'));
      const res = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
        token: admin, body: { email, first_name: 'Invited', last_name: 'Person', role: 'BUSINESS_USER' },
      });
      expect(res.status).toBe(201);
      return { business: b, token: await fromOutbox(t.app, email, INVITE_RE) };
    }
    const accept = (idToken: string, invite: string) =>
      request(t.app, 'POST', `/v1/auth/invites/${invite}/accept-and-create-identity`, { token: idToken, body: { password: 'another-password-1' } });

    it('links the invited user to the signed-in identity with the same email and signs into it', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const email = f.email('employee');
      const { business, token } = await inviteTo(email);
      await sendLink(email);
      const { id_token } = (await linkSignIn(await fromOutbox(t.app, email, LINK_RE))).body;
      const res = await accept(id_token, token);
      expect(res.status).toBe(200);
      const claims = claimsOf(res.body.id_token);
      expect(claims).toMatchObject({ business_id: business.businessId, sub: claimsOf(id_token).sub, ramp_access_scopes: ['default'] });
      const [user] = await t.db.query<{ status: string; has_accepted_cardholder_agreement: boolean }>(
        'SELECT status, has_accepted_cardholder_agreement FROM spend_users WHERE id = $1', [claims.ramp_user_uuid],
      );
      expect(user).toEqual({ status: 'ACTIVE', has_accepted_cardholder_agreement: true });
      // The identity had a password: it keeps it.
      expect((await request(t.app, 'POST', '/v1/public/sign-in', { body: { email, password: FIXTURE_PASSWORD } })).status).toBe(200);
      expect(errorCode(await accept(id_token, token))).toBe('REQUEST_7001');
    });

    it('refuses an invite addressed to another email (AUTH_7018) and changes nothing', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const other = `someone-else-${f.businessId.slice(0, 8)}@invite.test`;
      const { token } = await inviteTo(other);
      const res = await accept(await signIn(t.app, f.email('employee')), token);
      expect(errorCode(res)).toBe('AUTH_7018');
      const rows = await t.db.query<{ accepted_at: Date | null; status: string }>(
        'SELECT i.accepted_at, u.status FROM user_invites i JOIN spend_users u ON u.id = i.user_id WHERE u.email = $1', [other],
      );
      expect(rows).toEqual([{ accepted_at: null, status: 'INVITED' }]);
    });

    it('answers AUTH_7027 for an overdue invite and records it INVITE_EXPIRED', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const { token } = await inviteTo(f.email('auditor'));
      clock.advance(INVITE_TTL_MS + 1000);
      const res = await accept(await signIn(t.app, f.email('auditor')), token);
      expect([res.status, errorCode(res)]).toEqual([403, 'AUTH_7027']);
      const rows = await t.db.query<{ status: string }>(
        `SELECT status FROM spend_users WHERE lower(email) = lower($1) AND business_id <> $2`, [f.email('auditor'), f.businessId],
      );
      expect(rows).toEqual([{ status: 'INVITE_EXPIRED' }]);
    });

    it('refuses a token older than 5 minutes (AUTH_7016)', async () => {
      const f = await makeBusiness(t.db, { transactions: 0 });
      const { token } = await inviteTo(f.email('manager'));
      const idToken = await signIn(t.app, f.email('manager'));
      clock.advance(RECENT_MS + 1000);
      const res = await accept(idToken, token);
      expect([res.status, errorCode(res)]).toEqual([403, 'AUTH_7016']);
    });
  });
});
