import { describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, request, signIn } from '../test-fixtures.ts';
import { testClock } from './identity-test-kit.ts';

const clock = testClock();
const VERIFICATION = '/v1/auth/users/current/email-verification';
const CODE_RE = /\b(\d{6})\b/;

/** The newest mail to `email` with `subject`, and the 6-digit code in it. */
async function mailedCode(app: Hono, email: string, subject: string): Promise<string> {
  const res = await request<{ messages: { subject: string; body: string }[] }>(app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
  const mail = res.body.messages.find((m) => m.subject === subject);
  const code = mail && CODE_RE.exec(mail.body)?.[1];
  if (!code) throw new Error(`no "${subject}" mail to ${email}: ${res.text}`);
  return code;
}
const CONFIRM_SUBJECT = 'Confirm your Ledgerline email address';

describe.each(await testDatabases())('email verification at sign-up on %s', (kind) => {
  const t = useTestApp(kind, { now: clock.now, devOutbox: true });
  let n = 0;
  async function signUp() {
    const email = `owner-${kind}-${++n}-${clock.ms}@verify.test`;
    const res = await request(t.app, 'POST', '/v1/public/sign-up', {
      body: { email, password: 'sign-up-password-1', first_name: 'Mallory', last_name: 'Owner', business_name: `Verify ${n}` },
    });
    expect(res.status, res.text).toBe(201);
    return { email, token: res.body.id_token as string };
  }
  const verify = (token: string, code: string) => request(t.app, 'POST', `${VERIFICATION}/verify`, { token, body: { code } });
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('sign-up mails a code; wrong → PROFILE_7017, expired → PROFILE_7016, right → verified, again → PROFILE_7027', async () => {
    const { email, token } = await signUp();
    expect((await request(t.app, 'GET', VERIFICATION, { token })).body).toEqual({ email, verified: false, verified_at: null });
    const code = await mailedCode(t.app, email, CONFIRM_SUBJECT);

    const bad = await verify(token, wrong(code));
    expect([bad.status, bad.body.error_v2.error_code]).toEqual([422, 'PROFILE_7017']);
    clock.advance(10 * 60 * 1000 + 1000);
    const expired = await verify(token, code);
    expect([expired.status, expired.body.error_v2.error_code]).toEqual([422, 'PROFILE_7016']);

    const resent = await request(t.app, 'POST', `${VERIFICATION}/send`, { token, body: {} });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.expires_at).toBe(new Date(clock.ms + 10 * 60 * 1000).toISOString());
    const fresh = await mailedCode(t.app, email, CONFIRM_SUBJECT);
    const done = await verify(token, fresh);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ email, verified: true, verified_at: new Date(clock.ms).toISOString() });

    const again = await verify(token, fresh);
    expect([again.status, again.body.error_v2.error_code]).toEqual([422, 'PROFILE_7027']);
    const sendAgain = await request(t.app, 'POST', `${VERIFICATION}/send`, { token, body: {} });
    expect([sendAgain.status, sendAgain.body.error_v2.error_code]).toEqual([422, 'PROFILE_7027']);
    const malformed = await verify(token, '12ab56');
    expect(malformed.body.error_v2.errors).toEqual({ code: 'code must be a valid 6-digit code' });
  });

  it('a resend replaces the older code; a step-up email code never verifies the address; resends are rate-limited', async () => {
    const { email, token } = await signUp();
    const first = await mailedCode(t.app, email, CONFIRM_SUBJECT);
    expect((await request(t.app, 'POST', `${VERIFICATION}/send`, { token, body: {} })).status).toBe(200);
    const second = await mailedCode(t.app, email, CONFIRM_SUBJECT);
    if (first !== second) expect((await verify(token, first)).body.error_v2.error_code).toBe('PROFILE_7017');
    // A code of the other purpose (send-email-otp) is not this one.
    expect((await request(t.app, 'POST', '/v1/auth/users/current/send-email-otp', { token, body: {} })).status).toBe(200);
    const stepUpCode = await mailedCode(t.app, email, 'Your Ledgerline verification code');
    if (stepUpCode !== second) expect((await verify(token, stepUpCode)).body.error_v2.error_code).toBe('PROFILE_7017');
    // The send-email-otp budget (5 per 15 minutes per person) is shared: one used above, one by the first resend.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(t.app, 'POST', `${VERIFICATION}/send`, { token, body: {} })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await verify(token, await mailedCode(t.app, email, CONFIRM_SUBJECT))).status).toBe(200);
  });

  it('an unverified owner cannot invite, set up SSO, grant support access or remind approvers; verified, they can', async () => {
    const { email, token } = await signUp();
    const refusedUnverified = (res: { status: number; body: { error_v2?: { error_code?: string } } }, what: string) => {
      expect(res.status, what).toBe(403);
      expect(res.body.error_v2?.error_code, what).toBe('PROFILE_UNVERIFIED');
    };
    const invite = () => request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
      token, body: { email: `invitee-${n}-${kind}@verify.test`, first_name: 'In', last_name: 'Vitee', role: 'BUSINESS_USER' },
    });
    refusedUnverified(await invite(), 'invite');
    refusedUnverified(await request(t.app, 'POST', '/v1/auth/authentication/oidc-providers', {
      token, body: { domain: 'demo.test', brand: 'OKTA', issuer: 'https://idp.demo.test', client_id: 'x', client_secret: 'y' },
    }), 'oidc provider');
    refusedUnverified(await request(t.app, 'POST', '/v1/auth/authentication/saml-providers', {
      token, body: { domain: 'demo.test', brand: 'OKTA', metadata_xml: '<EntityDescriptor/>' },
    }), 'saml provider');
    refusedUnverified(await request(t.app, 'POST', '/v1/auth/businesses/support-access', { token, body: { days: 1 } }), 'support access');
    refusedUnverified(await request(t.app, 'POST', '/v1/auth/bill-pay/bulk-actions/remind-next-approvers', {
      token, body: { bill_ids: ['00000000-0000-4000-8000-000000000000'] },
    }), 'remind approvers');
    expect((await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token })).body.data).toEqual([]);

    expect((await verify(token, await mailedCode(t.app, email, CONFIRM_SUBJECT))).status).toBe(200);
    expect((await invite()).status).toBe(201);
    expect((await request(t.app, 'POST', '/v1/auth/businesses/support-access', { token, body: { days: 1 } })).status).toBe(201);
  });

  it('existing people are verified; an invitee is verified by accepting the mailed invite', async () => {
    const f = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, f.email('admin'));
    expect((await request(t.app, 'GET', VERIFICATION, { token: admin })).body.verified).toBe(true);
    const email = `new-${kind}-${clock.ms}@verify.test`;
    const invited = await request(t.app, 'POST', '/v1/auth/businesses/users/invite', {
      token: admin, body: { email, first_name: 'New', last_name: 'Person', role: 'BUSINESS_USER' },
    });
    expect(invited.status).toBe(201);
    const verifiedAt = async () =>
      (await t.db.query<{ v: Date | null }>('SELECT email_verified_at AS v FROM identities WHERE lower(email) = $1', [email]))[0]!.v;
    expect(await verifiedAt()).toBeNull();
    const outbox = await request(t.app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
    const inviteToken = /\/invites\/([A-Za-z0-9_-]+)/.exec(outbox.body.messages[0].body)![1]!;
    const accepted = await request(t.app, 'POST', `/v1/public/invites/${inviteToken}/accept`, { body: { password: 'invitee-password-1' } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(await verifiedAt()).not.toBeNull();
  });

  it('a passwordless sign-in link proves the mailbox', async () => {
    const { email } = await signUp();
    expect((await request(t.app, 'POST', '/v1/public/passwordless/send', { body: { email } })).status).toBe(204);
    const outbox = await request(t.app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(email)}`);
    const link = outbox.body.messages.map((m: { body: string }) => /\/passwordless\?token=([A-Za-z0-9_-]+)/.exec(m.body)?.[1]).find(Boolean);
    const res = await request(t.app, 'POST', '/v1/public/passwordless/sign-in', { body: { token: link } });
    expect(res.status, res.text).toBe(200);
    expect((await request(t.app, 'GET', VERIFICATION, { token: res.body.id_token })).body.verified).toBe(true);
  });
});
