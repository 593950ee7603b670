import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import { openSession } from '../auth/session.ts';
import { registrationOptions, verifyRegistration, type RelyingParty } from '../auth/webauthn.ts';
import { SoftPasskey } from '../auth/webauthn-test-kit.ts';
import { testDatabases } from '../test-db.ts';
import { useTestApp } from '../test-app.ts';
import { makeBusiness, makeVendor, refusal, request, signIn } from '../test-fixtures.ts';
import { addMember, makeFirm } from './external-firm-test-kit.ts';
import { claimsOf } from './identity-test-kit.ts';
import { acceptNew, invite } from './vendor-network-test-kit.ts';

/**
 * Issue 31: an identity with no business but another surface signs in to that surface by every way
 * in — password, a mailed passwordless link, and a passkey as the second factor of either — and gets
 * its token, not 4014. One identity holds only a firm membership, the other only a vendor network
 * vendor (whose hidden spend user in the payer is never a sign-in's default).
 */
const PASSKEYS = '/v1/auth/authentication/tokens/webauthn';
const LINK_RE = /\/passwordless\?token=([A-Za-z0-9_-]+)/;

type Person = { email: string; password: string; identityId: string; claim: OtherSurfaceClaim; home: string };

describe.each(await testDatabases())('signing in to another surface on %s', (kind) => {
  const t = useTestApp(kind, { devOutbox: true });

  async function firmOnly(): Promise<Person> {
    const firm = await makeFirm(t.app, t.db);
    const member = await addMember(t.app, t.db, firm);
    const [row] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM external_firm_users WHERE id = $1', [member.firmUserId]);
    return {
      email: member.email, password: 'member-password-1', identityId: row!.identity_id, home: '/v1/auth/external-firm',
      claim: { kind: 'ADVISOR_CONSOLE', external_firm_id: firm.firmId, external_firm_user_id: member.firmUserId },
    };
  }

  async function vendorOnly(): Promise<Person> {
    const payer = await makeBusiness(t.db, { transactions: 0 });
    const admin = await signIn(t.app, payer.email('admin'));
    const email = `vendor-${randomUUID().slice(0, 8)}@vendor.test`;
    const joined = await acceptNew(t.app, t.db, await invite(t.app, t.db, admin, await makeVendor(t.app, admin, 'Paper Co'), email));
    const hidden = await t.db.query(`SELECT 1 FROM spend_users WHERE identity_id = $1 AND role = 'VENDOR_NETWORK_ADMIN'`, [joined.identityId]);
    expect(hidden).toHaveLength(1);
    return {
      email, password: 'vendor-password-1', identityId: joined.identityId, home: '/v1/auth/vendor-network/profile',
      claim: { kind: 'VENDOR_PORTAL', network_vendor_id: joined.networkVendorId },
    };
  }

  /** A passkey enrolled for the identity as the registration call enrols one (its own session). */
  async function enrolPasskey(p: Person): Promise<SoftPasskey> {
    const rp: RelyingParty = { origins: ['http://localhost'], rpIds: ['localhost'], rpId: 'localhost' };
    const owner = { identityId: p.identityId, sessionId: await openSession(t.db, p.identityId) };
    const now = t.app.deps.now();
    const { options } = await registrationOptions(t.db, rp, owner, p.email, now);
    const key = new SoftPasskey();
    const done = await verifyRegistration(t.db, rp, owner, key.register(options.challenge), 'Laptop', now);
    expect(done.ok).toBe(true);
    return key;
  }

  /** The token is the surface's, fully scoped, and opens the surface's own call. */
  async function expectSurfaceToken(p: Person, token: string) {
    expect(claimsOf(token)).toMatchObject({
      sub: p.identityId, ramp_surface: p.claim, business_id: null, ramp_user_uuid: null, ramp_access_scopes: ['default'],
    });
    const home = await request(t.app, 'GET', p.home, { token });
    expect(home.status, home.text).toBe(200);
  }

  const passwordSignIn = (p: Person) => request(t.app, 'POST', '/v1/public/sign-in', { body: { email: p.email, password: p.password } });

  async function linkSignIn(p: Person) {
    const sent = await request(t.app, 'POST', '/v1/public/passwordless/send', { body: { email: p.email } });
    expect(sent.status).toBe(204);
    const mail = await request<{ messages: { body: string }[] }>(t.app, 'GET', `/v1/public/dev/outbox?email=${encodeURIComponent(p.email)}`);
    const link = mail.body.messages.map((m) => LINK_RE.exec(m.body)?.[1]).find(Boolean);
    if (!link) throw new Error(`no passwordless link mailed to ${p.email}`);
    return request(t.app, 'POST', '/v1/public/passwordless/sign-in', { body: { token: link } });
  }

  describe.each([
    ['a firm-only identity', firmOnly],
    ['a vendor-only identity', vendorOnly],
  ] as const)('%s', (_, make) => {
    it('signs in by password to its surface', async () => {
      const p = await make();
      const res = await passwordSignIn(p);
      expect(res.status, res.text).toBe(200);
      expect(res.body.mfa_required).toBe(false);
      await expectSurfaceToken(p, res.body.id_token);
    });

    it('signs in by a passwordless link to its surface (the link used once)', async () => {
      const p = await make();
      const res = await linkSignIn(p);
      expect(res.status, res.text).toBe(200);
      expect(res.body.mfa_required).toBe(false);
      await expectSurfaceToken(p, res.body.id_token);
      const used = await t.db.query<{ used: boolean }>('SELECT used_at IS NOT NULL AS used FROM passwordless_links WHERE identity_id = $1', [p.identityId]);
      expect(used).toEqual([{ used: true }]);
    });

    it.each([
      ['password', passwordSignIn],
      ['passwordless link', linkSignIn],
    ] as const)('with a passkey: the %s sign-in waits for it on the surface, the passkey completes it', async (_way, first) => {
      const p = await make();
      const key = await enrolPasskey(p);
      const pending = await first(p);
      expect(pending.status, pending.text).toBe(200);
      expect(pending.body.mfa_required).toBe(true);
      const half = pending.body.id_token as string;
      expect(claimsOf(half)).toMatchObject({ ramp_surface: p.claim, ramp_access_scopes: [], ramp_mfa_required: true, ramp_mfa_authed: false });
      expect(refusal(await request(t.app, 'GET', p.home, { token: half }))).toEqual([403, 'AUTH_7016']);
      const options = await request(t.app, 'POST', `${PASSKEYS}/authentication/options`, { token: half, body: {} });
      expect(options.status, options.text).toBe(201);
      const done = await request(t.app, 'POST', '/v1/auth/users/current/verify-mfa', {
        token: half, body: { webauthn: key.assert(options.body.options.challenge) },
      });
      expect(done.status, done.text).toBe(200);
      expect(claimsOf(done.body.id_token)).toMatchObject({ ramp_mfa_authed: true });
      await expectSurfaceToken(p, done.body.id_token);
    });
  });

  it('an identity with neither a business nor another surface still answers 4014 by a passwordless link', async () => {
    const p = await firmOnly();
    await t.db.query(`UPDATE external_firm_users SET status = 'REMOVED' WHERE identity_id = $1`, [p.identityId]);
    expect(refusal(await linkSignIn(p))).toEqual([404, '4014']);
  });
});
