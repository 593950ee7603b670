import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_ENFORCED_MESSAGE } from '../../schema/sso-rules.ts';
import { headlessOidcSignIn, startOidcIdp } from '../support/oidc-idp.ts';
import { startDnsServer } from '../support/dns-server.ts';
import { insertInvitedUser } from '../support/invited-user.ts';
import { ssoCodeOf, ssoErrorOf, startNotOidcServer } from '../support/sso-redirects.ts';
import { createApp } from '../../server/app.ts';
import { TEST_TOKEN_SECRET, useTestApp } from '../../server/test-app.ts';
import { testDatabases } from '../../server/test-db.ts';
import { FIXTURE_PASSWORD, makeBusiness, request, signIn, type Fixture } from '../../server/test-fixtures.ts';
import { hashToken } from '../../server/domain/admin-users.ts';
import { NO_ACCOUNT_MESSAGE } from '../../server/routes/sso-finish.ts';

/**
 * Single sign-on on the server (issue 14): provider configuration and its §8 refusals, OIDC
 * sign-in end to end against a real OpenID provider on loopback (tests/support/oidc-idp.ts,
 * driven headlessly), Google through the same IdP standing in for Google's issuer, single use of
 * states and completion codes, and enforcement on password and passwordless sign-in.
 */
const CALLBACK = 'http://localhost/v1/public/sso/oidc/callback';
const idp = await startOidcIdp({
  clients: [
    { client_id: 'ledgerline', client_secret: 'ledgerline-secret', redirect_uris: [CALLBACK] },
    { client_id: 'google-client', client_secret: 'google-secret', redirect_uris: [CALLBACK] },
  ],
});
const google = { clientId: 'google-client', clientSecret: 'google-secret', issuer: idp.issuer };
/** The DNS server the app asks for domain proofs (LEDGERLINE_DNS_SERVER). */
const dns = await startDnsServer();

/** A loopback server that is not an OpenID provider (BUSINESS_7014). */
const notOidc = await startNotOidcServer();

afterAll(async () => {
  await idp.close();
  await dns.close();
  await notOidc.close();
});

const domainOf = (f: Fixture) => f.email('owner').split('@')[1]!;

describe.each(await testDatabases())('single sign-on on %s', (kind) => {
  const t = useTestApp(kind, { sso: { allowLoopbackHttp: true, google, publicUrl: null, dnsServer: dns.server } });
  let a: Fixture;
  let b: Fixture;
  let c: Fixture;
  let ownerA: string;
  let ownerB: string;
  let employeeA: string;

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    c = await makeBusiness(t.db, { transactions: 0 });
    ownerA = await signIn(t.app, a.email('owner'));
    ownerB = await signIn(t.app, b.email('owner'));
    await t.db.query('UPDATE identities SET email = $2 WHERE lower(email) = $1', [b.email('outsider'), contractorEmail()]);
    await t.db.query('UPDATE spend_users SET email = $2 WHERE id = $1', [b.users.outsider, contractorEmail()]);
    employeeA = await signIn(t.app, a.email('employee'));
  });

  const createOidc = (token: string, body: Record<string, unknown>) =>
    request(t.app, 'POST', '/v1/auth/authentication/oidc-providers', {
      token, body: { brand: 'OKTA', issuer: idp.issuer, client_id: 'ledgerline', client_secret: 'ledgerline-secret', ...body },
    });
  const patch = (token: string, id: string, body: Record<string, unknown>) =>
    request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${id}`, { token, body });
  const verify = (token: string, id: string) => request(t.app, 'POST', `/v1/auth/authentication/sso-providers/${id}/verify-domain`, { token });
  /** Publishes the claim's TXT record on the test DNS server (as the admin would at their DNS host). */
  const publish = (provider: { domain_challenge: { record_name: string; record_value: string } }, ...extra: string[]) =>
    dns.setTxt(provider.domain_challenge.record_name, [...extra, provider.domain_challenge.record_value]);

  /** The browser's whole trip: start, the IdP's form, our callback; answers our redirect. */
  async function ssoTrip(email: string, idpEmail = email, redirect?: string): Promise<{ location: string; callback: string }> {
    const start = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/start', { body: { email, ...(redirect && { redirect }) } });
    expect(start.status, start.text).toBe(200);
    return tripFrom(start.body.authorization_url, idpEmail);
  }
  async function tripFrom(authorizationUrl: string, idpEmail: string) {
    const callback = await headlessOidcSignIn(authorizationUrl, idpEmail);
    const url = new URL(callback);
    const res = await t.app.request(`${url.pathname}${url.search}`);
    expect(res.status).toBe(302);
    return { location: res.headers.get('location')!, callback: `${url.pathname}${url.search}` };
  }
  const complete = (code: string) => request(t.app, 'POST', '/v1/public/sso/complete', { body: { code } });

  let providerA: string;
  /** B's outsider, moved onto A's domain: a member of B only. */
  const contractorEmail = () => `contractor@${domainOf(a)}`;

  /** A person invited to A who has not accepted yet (no password), with the invite's token. */
  const invitedUser = (email: string) => insertInvitedUser(t.db, a.businessId, email);

  it('configures an OIDC provider by discovery, keeps the secret encrypted and never answers it', async () => {
    const res = await createOidc(ownerA, { domain: domainOf(a).toUpperCase() });
    expect(res.status, res.text).toBe(201);
    providerA = res.body.id;
    expect(res.body).toMatchObject({
      business_id: a.businessId, protocol: 'oidc', brand: 'OKTA', domain: domainOf(a), enabled: false, enforced: false, verified_at: null,
      saml: null, oidc: { issuer: idp.issuer, client_id: 'ledgerline', has_client_secret: true, redirect_uri: CALLBACK },
    });
    expect(res.text).not.toContain('ledgerline-secret');
    const [row] = await t.db.query<{ client_secret_enc: string }>('SELECT client_secret_enc FROM sso_providers WHERE id = $1', [providerA]);
    expect(row!.client_secret_enc).toMatch(/^v1\./);
    expect(row!.client_secret_enc).not.toContain('ledgerline-secret');
    const list = await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token: ownerA });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([providerA]);
    expect((await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token: ownerB })).body.data).toEqual([]);
    expect((await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token: employeeA })).status).toBe(403);
  });

  let claimB: { id: string; domain_challenge: { record_name: string; record_value: string } };

  it('refuses a second claim by the same business (AUTH_7030); another business may hold its own pending claim', async () => {
    const again = await createOidc(ownerA, { domain: domainOf(a) });
    expect(again.status).toBe(409);
    expect(again.body.error_v2).toMatchObject({ error_code: 'AUTH_7030', message: `Single sign-on is already set up for ${domainOf(a)}.` });
    const other = await createOidc(ownerB, { domain: domainOf(a) });
    expect(other.status, other.text).toBe(201);
    expect(other.body).toMatchObject({ domain_status: 'pending', domain_proven_at: null, enabled: false });
    claimB = other.body;
  });

  it('a domain is pending until its TXT record is found: it cannot be enabled or enforced, sign-in does not find it', async () => {
    const list = await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token: ownerA });
    const mine = list.body.data[0];
    expect(mine).toMatchObject({ domain_status: 'pending', domain_proven_at: null });
    expect(mine.domain_challenge.record_name).toBe(`_ledgerline-challenge.${domainOf(a)}`);
    expect(mine.domain_challenge.record_value).toMatch(/^ledgerline-domain-verification=[A-Za-z0-9_-]{32}$/);
    // A random token per claim: B's claim of the same domain has another.
    expect(claimB.domain_challenge.record_value).not.toBe(mine.domain_challenge.record_value);

    const enable = await patch(ownerA, providerA, { enabled: true });
    expect(enable.status).toBe(422);
    expect(enable.body.error_v2).toMatchObject({
      error_code: 'AUTH_7042',
      message: `Prove that your business owns ${domainOf(a)} before enabling single sign-on: add the TXT record shown for it at your DNS host, then choose Verify.`,
    });
    expect((await patch(ownerA, providerA, { enabled: true, enforced: true })).body.error_v2.error_code).toBe('AUTH_7028');
    // Created enabled: refused the same way.
    const enabledClaim = await createOidc(ownerB, { domain: `pending-${randomUUID().slice(0, 6)}.example.com`, enabled: true });
    expect(enabledClaim.body.error_v2.error_code).toBe('AUTH_7042');
    // The database holds the rule too.
    await expect(t.db.query('UPDATE sso_providers SET enabled = true WHERE id = $1', [providerA])).rejects.toThrow();

    const none = await verify(ownerA, providerA);
    expect(none.status, none.text).toBe(200);
    expect(none.body.check).toEqual({
      outcome: 'no_record',
      message: `We looked up _ledgerline-challenge.${domainOf(a)} and found no TXT record. Add it at your DNS host; changes can take a few minutes (sometimes hours) to appear. Then verify again.`,
    });
    expect(none.body.provider.domain_status).toBe('pending');
    dns.setTxt(mine.domain_challenge.record_name, ['v=spf1 -all', `${mine.domain_challenge.record_value}x`]);
    expect((await verify(ownerA, providerA)).body.check.outcome).toBe('no_match');
    dns.failName(mine.domain_challenge.record_name);
    expect((await verify(ownerA, providerA)).body.check.outcome).toBe('lookup_failed');
    dns.remove(mine.domain_challenge.record_name);
    expect(dns.lookups.some((l) => l.name === mine.domain_challenge.record_name && l.type === 'TXT')).toBe(true);
    // Sign-in does not find a pending claim (whether or not another business holds one too).
    const start = await request(t.app, 'POST', '/v1/public/sso/start', { body: { email: a.email('owner') } });
    expect(start.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: 'Single sign-on is not set up for this email.' });
    // Another business cannot check A's claim.
    expect((await verify(ownerB, providerA)).status).toBe(404);
  });

  it('the first business to prove the domain wins; the other claims are refused at verification and creation (AUTH_7030)', async () => {
    const [mine] = (await request(t.app, 'GET', '/v1/auth/authentication/sso-providers', { token: ownerA })).body.data;
    // Both claims' records are published (one TXT name may hold several values): A verifies first.
    publish(mine, claimB.domain_challenge.record_value);
    const proven = await verify(ownerA, providerA);
    expect(proven.status, proven.text).toBe(200);
    expect(proven.body.check).toEqual({
      outcome: 'proven', message: `Verified: ${domainOf(a)} belongs to your business. You can now enable single sign-on for it.`,
    });
    expect(proven.body.provider).toMatchObject({ domain_status: 'proven', enabled: false });
    expect(proven.body.provider.domain_proven_at).not.toBeNull();
    // Verifying again is harmless.
    expect((await verify(ownerA, providerA)).body.check.outcome).toBe('proven');

    const lost = await verify(ownerB, claimB.id);
    expect(lost.status).toBe(409);
    expect(lost.body.error_v2).toMatchObject({
      error_code: 'AUTH_7030',
      message: `Another Ledgerline business has already proved that it owns ${domainOf(a)}, so single sign-on for it is set up there.`,
    });
    const [row] = await t.db.query<{ domain_proven_at: Date | null }>('SELECT domain_proven_at FROM sso_providers WHERE id = $1', [claimB.id]);
    expect(row!.domain_proven_at).toBeNull();
    expect((await createOidc(ownerB, { domain: domainOf(a) })).body.error_v2.error_code).toBe('AUTH_7030');
    // B gives its losing claim up.
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/oidc-providers/${claimB.id}`, { token: ownerB })).status).toBe(200);
  });

  it('refuses issuers that are not https, do not answer (BUSINESS_7004) or are not OpenID Connect (BUSINESS_7014)', async () => {
    const cases: Array<[string, string]> = [
      ['http://idp.example.com', 'BUSINESS_7004'],
      ['not a url', 'BUSINESS_7004'],
      ['http://127.0.0.1:1', 'BUSINESS_7004'],
      [notOidc.url, 'BUSINESS_7014'],
    ];
    for (const [issuer, code] of cases) {
      const res = await createOidc(await signIn(t.app, c.email('owner')), { domain: `x${randomUUID().slice(0, 6)}.example.com`, issuer });
      expect(res.status, issuer).toBe(422);
      expect(res.body.error_v2.error_code, issuer).toBe(code);
    }
    // In production loopback http is refused too.
    const strict = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET, sso: { allowLoopbackHttp: false, google: null } });
    const res = await request(strict, 'POST', '/v1/auth/authentication/oidc-providers', {
      token: await signIn(t.app, c.email('owner')), body: { domain: 'strict.example.com', brand: 'OKTA', issuer: idp.issuer, client_id: 'c', client_secret: 's' },
    });
    expect(res.body.error_v2.error_code).toBe('BUSINESS_7004');
    await strict.close();
  });

  it('enables only with users on the domain (AUTH_7042); enforces only once verified and enabled (AUTH_7028)', async () => {
    const lonely = await createOidc(ownerB, { domain: 'nobody-here.example.com' });
    expect(lonely.status).toBe(201);
    publish(lonely.body);
    expect((await verify(ownerB, lonely.body.id)).body.check.outcome).toBe('proven');
    const enable = await patch(ownerB, lonely.body.id, { enabled: true });
    expect(enable.status).toBe(422);
    expect(enable.body.error_v2).toMatchObject({
      error_code: 'AUTH_7042', message: 'No one in this business has an email at nobody-here.example.com, so single sign-on cannot be enabled for it.',
    });
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/oidc-providers/${lonely.body.id}`, { token: ownerB })).status).toBe(200);

    expect((await patch(ownerA, providerA, { enforced: true })).body.error_v2.error_code).toBe('AUTH_7028');
    expect((await patch(ownerA, providerA, { enabled: true })).status).toBe(200);
    const unverified = await patch(ownerA, providerA, { enforced: true });
    expect(unverified.body.error_v2).toMatchObject({ error_code: 'AUTH_7028', message: 'Sign in through this provider once before enforcing it, so you know it works.' });
  });

  it('answers 404 for another business’s provider and business', async () => {
    expect((await patch(ownerB, providerA, { brand: 'OTHER' })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/oidc-providers/${providerA}`, { token: ownerB })).status).toBe(404);
    expect((await request(t.app, 'DELETE', `/v1/auth/businesses/${a.businessId}/sso`, { token: ownerB, body: {} })).status).toBe(404);
    const [row] = await t.db.query('SELECT brand FROM sso_providers WHERE id = $1', [providerA]);
    expect(row).toEqual({ brand: 'OKTA' });
  });

  it('start answers AUTH_7022 for a domain without an enabled provider', async () => {
    const res = await request(t.app, 'POST', '/v1/public/sso/start', { body: { email: b.email('owner') } });
    expect(res.status).toBe(403);
    expect(res.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: 'Single sign-on is not set up for this email.' });
  });

  it('signs a user in through the IdP: one-time code, the same token as a password sign-in, claim oidc, provider verified', async () => {
    const { location, callback } = await ssoTrip(a.email('manager'), a.email('manager'), '/transactions?x=1');
    const code = ssoCodeOf(location);
    const done = await complete(code);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ mfa_required: false, redirect: '/transactions?x=1' });
    const claims = decodeJwt(done.body.id_token);
    expect(claims).toMatchObject({ ramp_user_uuid: a.users.manager, business_id: a.businessId, sign_in_provider: 'oidc', ramp_access_scopes: ['default'] });
    const me = await request(t.app, 'GET', '/v1/auth/identity', { token: done.body.id_token });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(a.users.manager);
    const [p] = await t.db.query<{ verified_at: Date | null }>('SELECT verified_at FROM sso_providers WHERE id = $1', [providerA]);
    expect(p!.verified_at).not.toBeNull();

    // Single use: the code, and the IdP's callback (its state) replayed.
    const again = await complete(code);
    expect(again.status).toBe(422);
    expect(again.body.error_v2.error_code).toBe('PROFILE_7017');
    const replay = await t.app.request(callback);
    expect(ssoErrorOf(replay.headers.get('location')!)).toBe('This sign-in has expired or was already used. Start again.');
    // Two racing trades of one code (two tabs, a double click): exactly one sign-in.
    const raced = ssoCodeOf((await ssoTrip(a.email('manager'))).location);
    const both = await Promise.all([complete(raced), complete(raced)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    // MFA: the same rule as a password sign-in (half-scoped token until verify-mfa).
    await t.db.query('UPDATE identities SET mfa_required = true WHERE lower(email) = $1', [a.email('bookkeeper')]);
    const mfa = await complete(ssoCodeOf((await ssoTrip(a.email('bookkeeper'))).location));
    expect(mfa.body.mfa_required).toBe(true);
    expect(decodeJwt(mfa.body.id_token)).toMatchObject({ ramp_access_scopes: [], ramp_mfa_required: true, sign_in_provider: 'oidc' });
    // An open redirect is dropped.
    const evil = await ssoTrip(a.email('manager'), a.email('manager'), '//evil.example.com/x');
    expect((await complete(ssoCodeOf(evil.location))).body.redirect).toBeNull();
  });

  it('refuses unknown, suspended, unverified and off-domain emails with words, and accepts an invite on the way', async () => {
    expect(ssoErrorOf((await ssoTrip(`nobody@${domainOf(a)}`)).location)).toBe(NO_ACCOUNT_MESSAGE);
    // The IdP vouches for someone else than the person who started.
    expect(ssoErrorOf((await ssoTrip(a.email('manager'), b.email('owner'))).location)).toMatch(/signs in people at/);
    // Another business's member with an email on A's domain is not A's user: no account here.
    await t.db.query(`UPDATE spend_users SET status = 'SUSPENDED' WHERE id = $1`, [a.users.teammate]);
    expect(ssoErrorOf((await ssoTrip(a.email('teammate'))).location)).toBe('Your account is suspended. Contact your administrator.');
    await t.db.query(`UPDATE spend_users SET status = 'ACTIVE' WHERE id = $1`, [a.users.teammate]);

    idp.setAccount({ email: a.email('auditor'), email_verified: false });
    expect(ssoErrorOf((await ssoTrip(a.email('auditor'))).location)).toBe('Your identity provider has not verified your email address.');
    idp.setAccount({ email: a.email('auditor'), email_verified: true });

    // An invited person: the IdP proved the email, the invite is accepted and they are in.
    const email = `newcomer@${domainOf(a)}`;
    const { userId } = await invitedUser(email);
    const done = await complete(ssoCodeOf((await ssoTrip(email)).location));
    expect(done.status, done.text).toBe(200);
    expect(decodeJwt(done.body.id_token).ramp_user_uuid).toBe(userId);
    const [user] = await t.db.query<{ status: string }>('SELECT status FROM spend_users WHERE id = $1', [userId]);
    expect(user!.status).toBe('ACTIVE');
  });

  it('enforced: password and passwordless answer AUTH_7022 (a wrong password too); other domains are untouched', async () => {
    const enforce = await patch(ownerA, providerA, { enforced: true });
    expect(enforce.status, enforce.text).toBe(200);
    expect(enforce.body.enforced).toBe(true);
    for (const password of [FIXTURE_PASSWORD, 'wrong-password-123']) {
      const res = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: a.email('employee'), password } });
      expect(res.status).toBe(403);
      expect(res.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: SSO_ENFORCED_MESSAGE });
    }
    // Enforcement binds the provider's own business only: an unknown email on the domain gets the
    // ordinary answer, and another business's member who shares the domain signs in as before.
    const unknown = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: `ghost@${domainOf(a)}`, password: 'x' } });
    expect(unknown.body.error_v2.error_code).toBe('AUTH_7001');
    const contractor = await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: contractorEmail(), password: FIXTURE_PASSWORD } });
    expect(contractor.status, contractor.text).toBe(200);
    expect(decodeJwt(contractor.body.id_token).business_id).toBe(b.businessId);
    expect((await request(t.app, 'POST', '/v1/public/passwordless/send', { body: { email: contractorEmail() } })).status).toBe(204);
    const link = await request(t.app, 'POST', '/v1/public/passwordless/send', { body: { email: a.email('employee') } });
    expect(link.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: SSO_ENFORCED_MESSAGE });
    expect((await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: b.email('owner'), password: FIXTURE_PASSWORD } })).status).toBe(200);
    // A sign-in link mailed before enforcement, and an invite accepted with a password: refused too.
    const [employee] = await t.db.query<{ identity_id: string }>('SELECT identity_id::text FROM spend_users WHERE id = $1', [a.users.employee]);
    const linkToken = randomBytes(32).toString('base64url');
    await t.db.query(
      `INSERT INTO passwordless_links (id, identity_id, token_hash, expires_at, created_at) VALUES ($1, $2, $3, now() + interval '10 minutes', now())`,
      [randomUUID(), employee!.identity_id, hashToken(linkToken)],
    );
    const linkSignIn = await request(t.app, 'POST', '/v1/public/passwordless/sign-in', { body: { token: linkToken } });
    expect(linkSignIn.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: SSO_ENFORCED_MESSAGE });
    const invited = await invitedUser(`invitee@${domainOf(a)}`);
    const accept = await request(t.app, 'POST', `/v1/public/invites/${invited.token}/accept`, { body: { password: 'a-long-new-password-1' } });
    expect(accept.body.error_v2).toMatchObject({ error_code: 'AUTH_7022', message: SSO_ENFORCED_MESSAGE });
    // SSO still works, and accepts that invite on the way.
    expect(decodeJwt((await complete(ssoCodeOf((await ssoTrip(`invitee@${domainOf(a)}`)).location))).body.id_token).ramp_user_uuid).toBe(invited.userId);
    expect((await complete(ssoCodeOf((await ssoTrip(a.email('employee'))).location))).status).toBe(200);

    // Disabling while enforced, removing while enforced: refused.
    expect((await patch(ownerA, providerA, { enabled: false })).body.error_v2.error_code).toBe('AUTH_7028');
    const del = await request(t.app, 'DELETE', `/v1/auth/authentication/oidc-providers/${providerA}`, { token: ownerA });
    expect(del.body.error_v2.error_code).toBe('AUTH_7021');
    const delAll = await request(t.app, 'DELETE', `/v1/auth/businesses/${a.businessId}/sso`, { token: ownerA, body: { domains: [domainOf(a)] } });
    expect(delAll.body.error_v2.error_code).toBe('AUTH_7021');
  });

  it('Google: configured in the web config, signs in a verified active user, refuses an SSO-enforced domain', async () => {
    const config = await request(t.app, 'GET', '/v1/public/config');
    expect(config.body.googleSignIn).toBe(true);
    const start = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/google/start', { body: { redirect: '/home' } });
    expect(start.status, start.text).toBe(200);
    expect(start.body.authorization_url.startsWith(`${idp.issuer}/`)).toBe(true);
    const done = await complete(ssoCodeOf((await tripFrom(start.body.authorization_url, b.email('manager'))).location));
    expect(done.status, done.text).toBe(200);
    expect(done.body.redirect).toBe('/home');
    expect(decodeJwt(done.body.id_token)).toMatchObject({ ramp_user_uuid: b.users.manager, sign_in_provider: 'google' });

    const enforced = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/google/start', { body: {} });
    expect(ssoErrorOf((await tripFrom(enforced.body.authorization_url, a.email('owner'))).location)).toBe(SSO_ENFORCED_MESSAGE);
    // B's member on A's enforced domain is not A's to bind: Google signs them in.
    const shared = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/google/start', { body: {} });
    const sharedDone = await complete(ssoCodeOf((await tripFrom(shared.body.authorization_url, contractorEmail())).location));
    expect(decodeJwt(sharedDone.body.id_token)).toMatchObject({ ramp_user_uuid: b.users.outsider, business_id: b.businessId });
    const unknown = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/google/start', { body: {} });
    expect(ssoErrorOf((await tripFrom(unknown.body.authorization_url, 'stranger@example.org')).location)).toBe(NO_ACCOUNT_MESSAGE);

    const plain = createApp({ db: t.db, tokenSecret: TEST_TOKEN_SECRET, sso: { google: null } });
    expect((await request(plain, 'GET', '/v1/public/config')).body.googleSignIn).toBe(false);
    const off = await request(plain, 'POST', '/v1/public/sso/google/start', { body: {} });
    expect(off.body.error_v2.error_code).toBe('AUTH_7022');
    await plain.close();
  });

  it('a callback with no state, a forged one or an IdP error redirects with words, never a 500', async () => {
    for (const q of ['', '?state=forged&code=x', '?error=access_denied&state=nope', `?state=${'x'.repeat(5000)}`]) {
      const res = await t.app.request(`/v1/public/sso/oidc/callback${q}`);
      expect(res.status, q).toBe(302);
      expect(ssoErrorOf(res.headers.get('location')!)).toBe('This sign-in has expired or was already used. Start again.');
    }
    const start = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/start', { body: { email: a.email('owner') } });
    const state = new URL(start.body.authorization_url).searchParams.get('state');
    const denied = await t.app.request(`/v1/public/sso/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`);
    expect(ssoErrorOf(denied.headers.get('location')!)).toBe('The sign-in was cancelled at your identity provider.');
  });

  it('stops enforcing, then removes every provider of the business', async () => {
    expect((await patch(ownerA, providerA, { enforced: false })).status).toBe(200);
    const res = await request(t.app, 'DELETE', `/v1/auth/businesses/${a.businessId}/sso`, { token: ownerA });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, removed: 1 });
    expect((await request(t.app, 'POST', '/v1/public/sign-in', { body: { email: a.email('employee'), password: FIXTURE_PASSWORD } })).status).toBe(200);
  });
});
