/**
 * What the SSO integration tests share: where the server's callbacks (OIDC and SAML) send the
 * browser, read back (the completion code of a signed-in trip, or the words of a refused one; each
 * asserts the redirect's kind first), and an issuer that is not an OpenID provider.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';

/** `/sso/complete?code=…`: the one-time code the page exchanges for a token. */
export function ssoCodeOf(location: string): string {
  expect(location, location).toMatch(/^\/sso\/complete\?code=/);
  return new URL(location, 'http://x').searchParams.get('code')!;
}

/** `/sign-in?sso_error=…`: the words the sign-in page shows. */
export function ssoErrorOf(location: string): string | null {
  expect(location, location).toMatch(/^\/sign-in\?sso_error=/);
  return new URL(location, 'http://x').searchParams.get('sso_error');
}

/** A loopback HTTP server that answers every request with an HTML page: an issuer that is not an OpenID provider. */
export async function startNotOidcServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
