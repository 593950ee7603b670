import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../support/dns-server.ts';
import { ssoCodeOf, ssoErrorOf } from '../support/sso-redirects.ts';
import { startSamlIdp } from '../support/saml-idp.ts';
import { useTestApp } from '../../server/test-app.ts';
import { testDatabases } from '../../server/test-db.ts';
import { makeBusiness, request, signIn, type Fixture } from '../../server/test-fixtures.ts';

/**
 * SAML single sign-on wired end to end (issue 14): providers configured from a real loopback IdP's
 * metadata (URL or XML), the redirect to the IdP, its sign-in page and auto-posting form, our ACS
 * and the app's completion; and every forged or stale answer refused with words and no session —
 * a signature by another key, an expired assertion, one for another audience, a replay.
 */
const idp = await startSamlIdp();
const dns = await startDnsServer();
afterAll(async () => {
  await idp.close();
  await dns.close();
});

const domainOf = (f: Fixture) => f.email('owner').split('@')[1]!;
const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? null;

describe.each(await testDatabases())('SAML single sign-on on %s', (kind) => {
  const t = useTestApp(kind, { sso: { allowLoopbackHttp: true, google: null, publicUrl: null, dnsServer: dns.server } });
  let a: Fixture;
  let b: Fixture;
  let ownerA: string;
  let ownerB: string;
  let provider: { id: string; saml: { sp_entity_id: string; acs_url: string; sp_metadata_url: string; idp_entity_id: string; certificate_fingerprints: string[] } };

  beforeAll(async () => {
    a = await makeBusiness(t.db, { transactions: 0 });
    b = await makeBusiness(t.db, { transactions: 0 });
    ownerA = await signIn(t.app, a.email('owner'));
    ownerB = await signIn(t.app, b.email('owner'));
  });

  const createSaml = (token: string, body: Record<string, unknown>) =>
    request(t.app, 'POST', '/v1/auth/authentication/saml-providers', { token, body: { brand: 'OKTA', ...body } });
  const sp = () => ({ entityId: provider.saml.sp_entity_id, acsUrl: provider.saml.acs_url });
  const postAcs = (form: Record<string, string>) =>
    t.app.request(new URL(provider.saml.acs_url).pathname, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString(),
    });
  const locationOf = (res: Response) => {
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  };
  const codes = async () => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sso_completion_codes'))[0]!.n);

  /** `start`, then the IdP receives the AuthnRequest: our RelayState and the request id it must answer. */
  async function pending(email: string): Promise<{ relayState: string; requestId: string; page: string }> {
    const start = await request<{ authorization_url: string }>(t.app, 'POST', '/v1/public/sso/start', { body: { email, redirect: '/reimbursements' } });
    expect(start.status, start.text).toBe(200);
    const url = new URL(start.body.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    const page = await (await fetch(url)).text();
    const received = idp.requests.at(-1)!;
    expect(received.acsUrl).toBe(provider.saml.acs_url);
    return { relayState: url.searchParams.get('RelayState')!, requestId: received.id, page };
  }

  it('configures a provider from the IdP metadata URL, or its XML; refuses bad URLs (BUSINESS_7004) and bad XML (BUSINESS_7014)', async () => {
    const created = await createSaml(ownerA, { domain: domainOf(a), metadata_url: idp.metadataUrl });
    expect(created.status, created.text).toBe(201);
    expect(created.body.domain_status).toBe('pending');
    // The domain proved by its TXT record, then enabled.
    dns.setTxt(created.body.domain_challenge.record_name, [created.body.domain_challenge.record_value]);
    const proof = await request(t.app, 'POST', `/v1/auth/authentication/sso-providers/${created.body.id}/verify-domain`, { token: ownerA });
    expect(proof.body.check?.outcome, proof.text).toBe('proven');
    const res = await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${created.body.id}`, { token: ownerA, body: { enabled: true } });
    expect(res.status, res.text).toBe(200);
    provider = res.body;
    expect(res.body).toMatchObject({
      protocol: 'saml', enabled: true, oidc: null, domain_status: 'proven',
      saml: {
        metadata_url: idp.metadataUrl, idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl,
        sp_entity_id: `http://localhost/v1/public/sso/saml/${res.body.id}/metadata`,
        acs_url: `http://localhost/v1/public/sso/saml/${res.body.id}/acs`,
        sp_metadata_url: `http://localhost/v1/public/sso/saml/${res.body.id}/metadata`,
      },
    });
    expect(res.body.saml.certificate_fingerprints[0]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);

    const byXml = await createSaml(ownerB, { domain: domainOf(b), metadata_xml: idp.metadataXml });
    expect(byXml.status, byXml.text).toBe(201);
    expect(byXml.body.saml).toMatchObject({ metadata_url: null, idp_entity_id: idp.entityId });

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ metadata_url: 'http://idp.example.com/metadata' }, 'BUSINESS_7004'],
      [{ metadata_url: `${idp.metadataUrl}-missing` }, 'BUSINESS_7004'],
      [{ metadata_xml: '<not-closed' }, 'BUSINESS_7014'],
      [{ metadata_xml: '<?xml version="1.0"?><EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' }, 'BUSINESS_7014'],
      [{ metadata_url: idp.metadataUrl, metadata_xml: idp.metadataXml }, 'REQUEST_7001'],
      [{}, 'REQUEST_7001'],
    ];
    for (const [body, code] of refusals) {
      const bad = await createSaml(ownerB, { domain: `x${randomUUID().slice(0, 6)}.example.com`, ...body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.error_v2.error_code, JSON.stringify(body)).toBe(code);
    }
    // The domain is proven by A: taken, whichever protocol asks.
    expect((await createSaml(ownerB, { domain: domainOf(a), metadata_xml: idp.metadataXml })).body.error_v2.error_code).toBe('AUTH_7030');
    expect((await createSaml(ownerA, { domain: domainOf(a), metadata_xml: idp.metadataXml })).body.error_v2.error_code).toBe('AUTH_7030');
    // Another business's SAML provider is not found.
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/saml-providers/${provider.id}`, { token: ownerB })).status).toBe(404);
    // An OIDC delete of a SAML provider is not found either.
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/oidc-providers/${provider.id}`, { token: ownerA })).status).toBe(404);
  });

  it('serves our SP metadata for the admin to give the IdP', async () => {
    const res = await t.app.request(new URL(provider.saml.sp_metadata_url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${provider.saml.sp_entity_id}"`);
    expect(xml).toContain(`Location="${provider.saml.acs_url}"`);
    expect((await t.app.request(`/v1/public/sso/saml/${randomUUID()}/metadata`)).status).toBe(404);
  });

  it('signs in through the IdP’s page and form post: code, token with claim saml, provider verified', async () => {
    const { page } = await pending(a.email('manager'));
    // The IdP's sign-in page: post the email as a person would.
    const token = field(page, 'request');
    expect(token).toBeTruthy();
    const posted = await fetch(new URL('/sso/login', idp.ssoUrl), {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: a.email('manager'), request: token! }).toString(),
    });
    const autoPost = await posted.text();
    expect(autoPost).toContain(`action="${provider.saml.acs_url}"`);
    const res = await postAcs({ SAMLResponse: field(autoPost, 'SAMLResponse')!, RelayState: field(autoPost, 'RelayState')! });
    const done = await request(t.app, 'POST', '/v1/public/sso/complete', { body: { code: ssoCodeOf(locationOf(res)) } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.redirect).toBe('/reimbursements');
    expect(decodeJwt(done.body.id_token)).toMatchObject({ ramp_user_uuid: a.users.manager, sign_in_provider: 'saml' });
    const [row] = await t.db.query<{ verified_at: Date | null }>('SELECT verified_at FROM sso_providers WHERE id = $1', [provider.id]);
    expect(row!.verified_at).not.toBeNull();
  });

  it('refuses a forged signature, an expired assertion, another audience and a replay, with words and no session', async () => {
    const before = await codes();
    const now = Date.now();
    const cases: Array<[string, (requestId: string) => string, RegExp]> = [
      ['rogue key', (id) => idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: id, key: 'rogue' }), /signature did not verify/],
      [
        'expired',
        (id) => idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: id, now: new Date(now - 20 * 60_000), notBefore: new Date(now - 20 * 60_000), notOnOrAfter: new Date(now - 10 * 60_000) }),
        /expired/,
      ],
      ['audience', (id) => idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: id, audience: 'https://other.example/sp' }), /another application/],
      ['answers another request', (_id) => idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: '_someone-elses-request' }), /.+/],
    ];
    for (const [name, make, words] of cases) {
      const { relayState, requestId } = await pending(a.email('employee'));
      const error = ssoErrorOf(locationOf(await postAcs({ SAMLResponse: make(requestId), RelayState: relayState })));
      expect(error, name).toMatch(words);
    }
    expect(await codes()).toBe(before);

    // A good response works once; posted again (same state) it is refused.
    const first = await pending(a.email('employee'));
    const assertionId = `_${randomUUID().replace(/-/g, '')}`;
    const good = idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: first.requestId, assertionId });
    ssoCodeOf(locationOf(await postAcs({ SAMLResponse: good, RelayState: first.relayState })));
    expect(ssoErrorOf(locationOf(await postAcs({ SAMLResponse: good, RelayState: first.relayState })))).toBe(
      'This sign-in has expired or was already used. Start again.',
    );
    // The same assertion id in an answer to a new request: the replay guard refuses it.
    const second = await pending(a.email('employee'));
    const reused = idp.signResponse({ sp: sp(), email: a.email('employee'), inResponseTo: second.requestId, assertionId });
    expect(ssoErrorOf(locationOf(await postAcs({ SAMLResponse: reused, RelayState: second.relayState })))).toMatch(/already used/);
    expect(await codes()).toBe(before + 1);
  });

  it('an IdP-initiated response, a missing or non-form body, an unknown provider: redirected with words, never a 500', async () => {
    const unsolicited = idp.signResponse({ sp: sp(), email: a.email('employee') });
    expect(ssoErrorOf(locationOf(await postAcs({ SAMLResponse: unsolicited })))).toBe('This sign-in has expired or was already used. Start again.');
    expect(ssoErrorOf(locationOf(await postAcs({})))).toBe('The identity provider sent no sign-in response.');
    const json = await t.app.request(new URL(provider.saml.acs_url).pathname, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ SAMLResponse: unsolicited }),
    });
    expect(ssoErrorOf(locationOf(json))).toBe('The identity provider sent no sign-in response.');
    const garbage = await pending(a.email('employee'));
    expect(ssoErrorOf(locationOf(await postAcs({ SAMLResponse: '%%%not base64', RelayState: garbage.relayState })))).toBeTruthy();
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await t.app.request(`/v1/public/sso/saml/${id}/acs`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'SAMLResponse=x',
      });
      expect(ssoErrorOf(locationOf(res))).toBe('Single sign-on is not set up for this link.');
    }
  });

  it('replaces the metadata, and removes the provider unless enforced (AUTH_7021)', async () => {
    const patched = await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${provider.id}`, {
      token: ownerA, body: { metadata_xml: idp.metadataXml, enforced: true },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ enforced: true, saml: { metadata_url: null } });
    const oidcField = await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${provider.id}`, { token: ownerA, body: { issuer: 'https://x.example.com' } });
    expect(oidcField.status).toBe(422);
    const del = await request(t.app, 'DELETE', `/v1/auth/authentication/saml-providers/${provider.id}`, { token: ownerA });
    expect(del.body.error_v2.error_code).toBe('AUTH_7021');
    await request(t.app, 'PATCH', `/v1/auth/authentication/sso-providers/${provider.id}`, { token: ownerA, body: { enforced: false } });
    expect((await request(t.app, 'DELETE', `/v1/auth/authentication/saml-providers/${provider.id}`, { token: ownerA })).status).toBe(200);
  });
});
