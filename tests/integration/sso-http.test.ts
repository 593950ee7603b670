import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlessOidcSignIn, startOidcIdp, type OidcIdp } from '../support/oidc-idp.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

/**
 * SSO over real HTTP, the way the e2e suite drives it: the IdP starts first (its issuer is the
 * test server's Google issuer), the server next, then the server's redirect URI is registered at
 * the IdP (addClient). Google sign-in and an admin-configured OIDC provider, end to end.
 */
describe('SSO against a real test server', () => {
  let idp: OidcIdp;
  let server: TestServer;
  let dns: TestDnsServer;

  beforeAll(async () => {
    idp = await startOidcIdp({});
    dns = await startDnsServer();
    server = await startTestServer({
      transactions: 0, sso: { google: { clientId: 'google', clientSecret: 'google-secret', issuer: idp.issuer }, dnsServer: dns.server },
    });
    const redirect = `${server.url}/v1/public/sso/oidc/callback`;
    idp.addClient({ client_id: 'google', client_secret: 'google-secret', redirect_uris: [redirect] });
    idp.addClient({ client_id: 'demo-okta', client_secret: 'okta-secret', redirect_uris: [redirect] });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.close();
    await dns?.close();
  });

  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const res = await fetch(`${server.url}${path}`, {
      method, headers: { 'content-type': 'application/json', ...(token && { 'RAMP-ID-TOKEN': token }) }, body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error_v2?: { error_code: string } } };
  };
  /** From the IdP's answer to the app's completion: our callback's redirect, then sso.complete. */
  async function finish(authorizationUrl: string, email: string) {
    const callback = await headlessOidcSignIn(authorizationUrl, email);
    expect(callback.startsWith(`${server.url}/v1/public/sso/oidc/callback?`)).toBe(true);
    const res = await fetch(callback, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location, location).toMatch(/^\/sso\/complete\?code=/);
    return post('/v1/public/sso/complete', { code: new URL(location, server.url).searchParams.get('code') });
  }

  it('signs in with Google (the loopback IdP standing in for Google) and with an OIDC provider the admin configures', async () => {
    const config = await (await fetch(`${server.url}/v1/public/config`)).json() as { googleSignIn: boolean };
    expect(config.googleSignIn).toBe(true);
    const google = await post('/v1/public/sso/google/start', {});
    expect(google.status).toBe(200);
    const viaGoogle = await finish(google.body.authorization_url as string, 'employee@demo.test');
    expect(viaGoogle.status).toBe(200);
    expect(decodeJwt(viaGoogle.body.id_token as string).sign_in_provider).toBe('google');

    const admin = await post('/v1/public/sign-in', { email: 'admin@demo.test', password: 'demo-password-1' });
    const created = await post('/v1/auth/authentication/oidc-providers', {
      domain: 'demo.test', brand: 'OKTA', issuer: idp.issuer, client_id: 'demo-okta', client_secret: 'okta-secret',
    }, admin.body.id_token as string);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // demo.test proved through the DNS server the test server asks (LEDGERLINE_DNS_SERVER), then enabled.
    const challenge = created.body.domain_challenge as { record_name: string; record_value: string };
    expect(challenge.record_name).toBe('_ledgerline-challenge.demo.test');
    dns.setTxt(challenge.record_name, [challenge.record_value]);
    const proof = await post(`/v1/auth/authentication/sso-providers/${created.body.id as string}/verify-domain`, undefined, admin.body.id_token as string);
    expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    expect((proof.body.check as { outcome: string }).outcome).toBe('proven');
    const enabled = await post(`/v1/auth/authentication/sso-providers/${created.body.id as string}`, { enabled: true }, admin.body.id_token as string, 'PATCH');
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect((created.body.oidc as { redirect_uri: string }).redirect_uri).toBe(`${server.url}/v1/public/sso/oidc/callback`);
    const start = await post('/v1/public/sso/start', { email: 'employee@demo.test' });
    const viaOkta = await finish(start.body.authorization_url as string, 'employee@demo.test');
    expect(viaOkta.status).toBe(200);
    expect(decodeJwt(viaOkta.body.id_token as string).sign_in_provider).toBe('oidc');
  });
});
