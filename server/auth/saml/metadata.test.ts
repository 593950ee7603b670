import { X509Certificate } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SamlError, type SamlFailure } from './errors.ts';
import { OUTBOUND_REFUSED_MESSAGE } from '../../core/outbound-fetch.ts';
import { certificateFingerprint, fetchIdpMetadata, parseIdpMetadata, spMetadataXml } from './metadata.ts';

const GENERIC = new RegExp(`^url: The metadata URL .* ${OUTBOUND_REFUSED_MESSAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** Two real self-signed certificates (CN=metadata test 1 and 2), base64 DER, made once with @peculiar/x509. */
const CERT1 =
  'MIIBIzCBy6ADAgECAgEBMAoGCCqGSM49BAMCMBoxGDAWBgNVBAMTD21ldGFkYXRhIHRlc3QgMTAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMBoxGDAWBgNVBAMTD21ldGFkYXRhIHRlc3QgMTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABO5WVkdiIoH16yeDLuiGsjnojFkIcUBiMge/IXyTEgX5lz3C9/FbQt8b/sBgfu3FMl2ij15SxMpImyfo26aTs3qjAjAAMAoGCCqGSM49BAMCA0cAMEQCIH0ae2EAzYmoSCK74scJ8Cw9WHGDKlwAVKVXGvE9WbAWAiAwPeskyT4pYat8lz4Yqj+Tj5RpDxmC0i2f4xATtiH2QQ==';
const CERT2 =
  'MIIBJTCBy6ADAgECAgEBMAoGCCqGSM49BAMCMBoxGDAWBgNVBAMTD21ldGFkYXRhIHRlc3QgMjAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMBoxGDAWBgNVBAMTD21ldGFkYXRhIHRlc3QgMjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABK/OLicuIW/Vu8YNG7fPlB6I7Yqz2IT/g18wcTauyWFRfSDhExm16jNmYQB0rXQircYY+0Eeu60oQVZCsbdpnjajAjAAMAoGCCqGSM49BAMCA0kAMEYCIQDse14Q/93vEMDWHKJDVB7t7b07vl3jo7CL2T82QtBjWgIhAMaMm0xHdnwMmeFpZfJZW/meLKTqx+JQrBQ/CRZNR+VR';

const md = (inner: string, entityId = 'https://idp.example.com/entity', extraNs = '') =>
  `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"${extraNs} entityID="${entityId}">${inner}</md:EntityDescriptor>`;
const idpDesc = (inner: string, protocols = 'urn:oasis:names:tc:SAML:2.0:protocol') =>
  `<md:IDPSSODescriptor protocolSupportEnumeration="${protocols}">${inner}</md:IDPSSODescriptor>`;
const key = (cert: string, use?: string) =>
  `<md:KeyDescriptor${use ? ` use="${use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
const sso = (binding: 'HTTP-Redirect' | 'HTTP-POST', location: string) =>
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`;

function reasonOf(fn: () => unknown): SamlFailure | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (e instanceof SamlError) return e.reason;
    throw e;
  }
}

describe('parseIdpMetadata', () => {
  it('reads entity id, Redirect SSO URL and signing certificates (with line breaks in the base64)', () => {
    const wrapped = CERT1.replace(/(.{64})/g, '$1\n  ');
    const xml = md(
      idpDesc(
        key(wrapped, 'signing') +
          key(CERT2, 'encryption') +
          key(CERT2) +
          sso('HTTP-POST', 'https://idp.example.com/post') +
          sso('HTTP-Redirect', 'https://idp.example.com/redirect'),
      ),
    );
    expect(parseIdpMetadata(xml)).toEqual({
      entityId: 'https://idp.example.com/entity',
      ssoUrl: 'https://idp.example.com/redirect',
      certificates: [CERT1, CERT2],
    });
  });

  it('falls back to the POST binding, and reads an EntitiesDescriptor', () => {
    const entity = md(idpDesc(key(CERT1) + sso('HTTP-POST', 'https://idp.example.com/post')));
    const xml = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${entity.replace('<?xml version="1.0"?>', '')}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(xml).ssoUrl).toBe('https://idp.example.com/post');
  });

  it.each([
    ['malformed XML', '<md:EntityDescriptor'],
    ['not XML at all', 'hello'],
    ['XML that is not metadata', '<html><body>Sign in</body></html>'],
    ['SP metadata (no IDPSSODescriptor)', spMetadataXml({ entityId: 'https://sp.example.com', acsUrl: 'https://sp.example.com/acs' })],
    ['no signing certificate', md(idpDesc(key(CERT1, 'encryption') + sso('HTTP-Redirect', 'https://idp.example.com/sso')))],
    ['an unreadable certificate', md(idpDesc(key('bm90IGEgY2VydA==') + sso('HTTP-Redirect', 'https://idp.example.com/sso')))],
    ['no SingleSignOnService', md(idpDesc(key(CERT1)))],
    ['only an Artifact binding', md(idpDesc(key(CERT1) + '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://idp.example.com/a"/>'))],
    ['a non-web SSO location', md(idpDesc(key(CERT1) + sso('HTTP-Redirect', 'javascript:alert(1)')))],
    ['SAML 1.1 only', md(idpDesc(key(CERT1) + sso('HTTP-Redirect', 'https://idp.example.com/sso'), 'urn:oasis:names:tc:SAML:1.1:protocol'))],
    ['no entityID', md(idpDesc(key(CERT1) + sso('HTTP-Redirect', 'https://idp.example.com/sso')), '')],
    ['a DOCTYPE', `<!DOCTYPE md [<!ENTITY x "y">]>${md(idpDesc(key(CERT1) + sso('HTTP-Redirect', 'https://idp.example.com/sso')))}`],
  ])('refuses %s as format', (_name, xml) => {
    expect(reasonOf(() => parseIdpMetadata(xml))).toBe('format');
  });
});

describe('certificateFingerprint', () => {
  it("is the certificate's SHA-256 fingerprint as IdP consoles show it", () => {
    const fp = certificateFingerprint(CERT1);
    expect(fp).toBe(new X509Certificate(Buffer.from(CERT1, 'base64')).fingerprint256);
    expect(fp).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });
});

describe('spMetadataXml', () => {
  it('declares the ACS (POST), email NameID, unsigned requests and wanted signed assertions', () => {
    const xml = spMetadataXml({ entityId: 'https://app.example.com/sp?x=1&y=2', acsUrl: 'https://app.example.com/acs' });
    expect(xml).toContain('entityID="https://app.example.com/sp?x=1&amp;y=2"');
    expect(xml).toContain('AuthnRequestsSigned="false"');
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).toContain('<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>');
    expect(xml).toMatch(/Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https:\/\/app.example.com\/acs"/);
  });
});

describe('fetchIdpMetadata', () => {
  const servers: Server[] = [];
  const stop = (s: Server) =>
    new Promise((r) => {
      s.closeAllConnections();
      s.close(r);
    });
  afterAll(() => Promise.all(servers.map(stop)));
  async function serve(handler: RequestListener): Promise<string> {
    const s = createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof SamlError ? `${e.reason}: ${e.message}` : String(e)),
    );

  it('answers the body of a loopback http URL when allowed, following a checked redirect', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/old') return res.writeHead(302, { location: '/metadata' }).end();
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end('<md/>');
    });
    expect(await fetchIdpMetadata(`${base}/metadata`, { allowLoopbackHttp: true })).toBe('<md/>');
    expect(await fetchIdpMetadata(`${base}/old`, { allowLoopbackHttp: true })).toBe('<md/>');
    expect(await fetchIdpMetadata(`${base.replace('127.0.0.1', 'localhost')}/metadata`, { allowLoopbackHttp: true })).toBe('<md/>');
  });

  it.each([
    ['not a URL', 'metadata please'],
    ['a relative URL', '/metadata'],
    ['ftp', 'ftp://idp.example.com/metadata'],
    ['http to a non-loopback host', 'http://idp.example.com/metadata'],
  ])('refuses %s before any request', async (_name, url) => {
    expect(await failure(fetchIdpMetadata(url, { allowLoopbackHttp: true }))).toMatch(GENERIC);
  });

  it('refuses loopback http unless allowed', async () => {
    expect(await failure(fetchIdpMetadata('http://127.0.0.1:9/metadata'))).toMatch(GENERIC);
  });

  it('refuses a redirect to plain http elsewhere, a slow answer, a body over 1 MB and a closed port in the same words; says a 404', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/missing') return res.writeHead(404).end('no');
      if (req.url === '/away') return res.writeHead(301, { location: 'http://idp.example.com/metadata' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('<md/>'), 2000);
      if (req.url === '/trickle') {
        res.writeHead(200);
        res.write('<md>');
        return void setTimeout(() => res.end('</md>'), 2000);
      }
      if (req.url === '/huge') return res.writeHead(200).end('x'.repeat(1024 * 1024 + 1));
      if (req.url === '/huge-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 20; i++) res.write('y'.repeat(64 * 1024));
        return res.end();
      }
    });
    const opts = { allowLoopbackHttp: true, timeoutMs: 500 };
    expect(await failure(fetchIdpMetadata(`${base}/missing`, opts))).toMatch(/^url: .*HTTP 404/);
    // One message for every refusal: what is listening where is not told.
    for (const url of [`${base}/away`, `${base}/slow`, `${base}/trickle`, `${base}/huge`, `${base}/huge-chunked`, 'http://127.0.0.1:9/metadata']) {
      expect(await failure(fetchIdpMetadata(url, opts)), url).toBe(`url: The metadata URL ${url} ${OUTBOUND_REFUSED_MESSAGE}`);
    }
  });
});
