/**
 * The SAML service provider (server/auth/saml) against a real IdP on loopback (tests/support/saml-idp.ts):
 * metadata over HTTP, the AuthnRequest as the IdP decodes it, its sign-in form's round trip, and
 * every refusal with its reason. Here rather than beside the code because server/ may not import
 * tests/ (eslint import zones).
 */
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchIdpMetadata,
  parseIdpMetadata,
  samlLoginUrl,
  SamlError,
  verifySamlResponse,
  type SamlFailure,
  type SamlIdp,
} from '../../server/auth/saml/index.ts';
import { startSamlIdp, type SignResponseOptions, type TestSamlIdp } from '../support/saml-idp.ts';

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const sp = { entityId: 'https://ledgerline.test/v1/public/sso/saml/p1/metadata', acsUrl: 'https://ledgerline.test/v1/public/sso/saml/p1/acs' };

let idp: TestSamlIdp;
let config: SamlIdp;
beforeAll(async () => {
  idp = await startSamlIdp();
  config = parseIdpMetadata(await fetchIdpMetadata(idp.metadataUrl, { allowLoopbackHttp: true }));
});
afterAll(() => idp.close());

async function refusal(p: Promise<unknown>): Promise<SamlFailure> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SamlError);
  expect((err as SamlError).message.length).toBeGreaterThan(10);
  return (err as SamlError).reason;
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
const assertionOf = (doc: Document) => doc.getElementsByTagNameNS(SAML, 'Assertion')[0]!;

describe('metadata over HTTP', () => {
  it('fetches and parses the IdP metadata', async () => {
    expect(await fetchIdpMetadata(idp.metadataUrl, { allowLoopbackHttp: true })).toBe(idp.metadataXml);
    expect(config).toEqual({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificates: [idp.certBase64] });
  });

  it('refuses an http URL unless loopback is allowed, and a 404', async () => {
    expect(await refusal(fetchIdpMetadata(idp.metadataUrl))).toBe('url');
    expect(await refusal(fetchIdpMetadata(idp.metadataUrl.replace('/metadata', '/nothing-here'), { allowLoopbackHttp: true }))).toBe('url');
  });
});

describe('login URL', () => {
  it('carries an AuthnRequest the IdP decodes, and the relay state', async () => {
    const { url, requestId } = await samlLoginUrl(sp, config, 'relay-42');
    expect(url.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Sign in');
    expect(idp.requests.at(-1)).toEqual({
      id: requestId,
      issuer: sp.entityId,
      acsUrl: sp.acsUrl,
      destination: idp.ssoUrl,
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      relayState: 'relay-42',
    });
  });

  it("the IdP's sign-in form posts a response that verifies, with the relay state", async () => {
    idp.loginAs('Dana@Acme.test');
    const { url, requestId } = await samlLoginUrl(sp, config, 'relay-form');
    const form = await (await fetch(url)).text();
    expect(form).toContain('value="Dana@Acme.test"');
    const token = /name="request" value="([^"]+)"/.exec(form)![1]!;
    const posted = await fetch(`${idp.ssoUrl}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request: token, email: 'Dana@Acme.test' }).toString(),
    });
    const html = await posted.text();
    expect(html).toContain(`action="${sp.acsUrl}"`);
    expect(/name="RelayState" value="([^"]+)"/.exec(html)![1]).toBe('relay-form');
    const samlResponse = /name="SAMLResponse" value="([^"]+)"/.exec(html)![1]!;
    const a = await verifySamlResponse({ sp, idp: config, samlResponse, expectedRequestId: requestId });
    expect(a).toMatchObject({ email: 'dana@acme.test', inResponseTo: requestId, issuer: idp.entityId });
    idp.loginAs(null);
  });
});

describe('verifySamlResponse', () => {
  const good = (o: Partial<SignResponseOptions> = {}) => idp.signResponse({ sp, email: 'Pat@Example.com', ...o });

  it.each(['assertion', 'response', 'both'] as const)('accepts a good response (%s signed)', async (signWhat) => {
    const now = new Date();
    const notOnOrAfter = new Date(now.getTime() + 300_000);
    const a = await verifySamlResponse({
      sp,
      idp: config,
      samlResponse: good({ signWhat, inResponseTo: '_req1', assertionId: '_a1', sessionIndex: '_s1', now, notOnOrAfter }),
      expectedRequestId: '_req1',
      now,
    });
    expect(a).toEqual({
      email: 'pat@example.com',
      nameId: 'Pat@Example.com',
      assertionId: '_a1',
      expiresAt: new Date(notOnOrAfter.toISOString()),
      sessionIndex: '_s1',
      inResponseTo: '_req1',
      issuer: idp.entityId,
    });
  });

  it('takes the email from an email attribute, and accepts IdP-initiated when no request is expected', async () => {
    const a = await verifySamlResponse({ sp, idp: config, samlResponse: good({ emailIn: 'attribute' }) });
    expect(a.email).toBe('pat@example.com');
    expect(a.inResponseTo).toBeNull();
  });

  it('accepts a second certificate (rotation): one of them verifies', async () => {
    const rotated = { ...config, certificates: [idp.rogueCertBase64, idp.certBase64] };
    await expect(verifySamlResponse({ sp, idp: rotated, samlResponse: good() })).resolves.toMatchObject({ email: 'pat@example.com' });
  });

  const minutes = (n: number) => new Date(Date.now() + n * 60_000);
  const cases: Array<[string, () => string, SamlFailure, { expectedRequestId?: string | null }?]> = [
    ['a signature by another key', () => good({ key: 'rogue' }), 'signature'],
    ['a response signed by another key', () => good({ key: 'rogue', signWhat: 'response' }), 'signature'],
    ['an unsigned response', () => good({ signWhat: 'none' }), 'signature'],
    ['an assertion changed after signing', () => encode(decode(good()).replace('Pat@Example.com', 'boss@example.com')), 'signature'],
    ['a response changed after signing', () => encode(decode(good({ signWhat: 'response' })).replace('Pat@Example.com', 'boss@example.com')), 'signature'],
    ['an expired assertion', () => good({ now: minutes(-20), notBefore: minutes(-21), notOnOrAfter: minutes(-10) }), 'expired'],
    ['an assertion just past the clock skew', () => good({ notOnOrAfter: minutes(-2.5) }), 'expired'],
    ['an assertion not yet valid', () => good({ notBefore: minutes(10), notOnOrAfter: minutes(20) }), 'not-yet-valid'],
    ['another audience', () => good({ audience: 'https://other.test/sp' }), 'audience'],
    ['another issuer', () => good({ issuer: 'https://evil.test/idp' }), 'issuer'],
    ['another destination', () => good({ destination: 'https://other.test/acs' }), 'destination'],
    ['another InResponseTo', () => good({ inResponseTo: '_other' }), 'in-response-to', { expectedRequestId: '_mine' }],
    ['no InResponseTo when a request is expected', () => good(), 'in-response-to', { expectedRequestId: '_mine' }],
    ['any response when none can be expected (null)', () => good({ inResponseTo: '_mine' }), 'in-response-to', { expectedRequestId: null }],
    ['a failed status', () => good({ status: 'AuthnFailed' }), 'status'],
    ['a Requester status', () => good({ status: 'Requester', signWhat: 'none' }), 'status'],
    ['no email (persistent NameID, no attribute)', () => good({ email: null }), 'no-email'],
    ['not base64', () => '%%%not base64%%%', 'format'],
    ['not XML', () => encode('<samlp:Response'), 'format'],
    ['a DOCTYPE', () => encode(`<!DOCTYPE x [<!ENTITY e "x">]>${decode(good())}`), 'format'],
  ];
  it.each(cases)('refuses %s', async (_name, make, reason, extra) => {
    expect(await refusal(verifySamlResponse({ sp, idp: config, samlResponse: make(), ...extra }))).toBe(reason);
  });

  it('reads the whole NameID when a comment splits it (comments are outside the signature)', async () => {
    const signed = decode(good({ email: 'pat@example.com.evil.test' }));
    const split = signed.replace('>pat@example.com.evil.test<', '>pat@example.com<!---->.evil.test<');
    expect(split).not.toBe(signed);
    const a = await verifySamlResponse({ sp, idp: config, samlResponse: encode(split) });
    expect(a.email).toBe('pat@example.com.evil.test');
  });

  it("checks the envelope's Destination too", async () => {
    const moved = decode(good()).replace(`Destination="${sp.acsUrl}"`, 'Destination="https://other.test/acs"');
    expect(await refusal(verifySamlResponse({ sp, idp: config, samlResponse: encode(moved) }))).toBe('destination');
  });

  it('honours the injected clock with 2 minutes of skew', async () => {
    const now = new Date();
    const samlResponse = good({ now, notBefore: now, notOnOrAfter: new Date(now.getTime() + 60_000) });
    await expect(verifySamlResponse({ sp, idp: config, samlResponse, now: new Date(now.getTime() + 170_000) })).resolves.toBeTruthy();
    expect(await refusal(verifySamlResponse({ sp, idp: config, samlResponse, now: new Date(now.getTime() + 181_000) }))).toBe('expired');
    await expect(verifySamlResponse({ sp, idp: config, samlResponse, now: new Date(now.getTime() - 110_000) })).resolves.toBeTruthy();
    expect(await refusal(verifySamlResponse({ sp, idp: config, samlResponse, now: new Date(now.getTime() - 130_000) }))).toBe('not-yet-valid');
  });

  describe('signature wrapping', () => {
    const forge = (signWhat: 'assertion' | 'response', wrap: (doc: Document, signed: Element, forged: Element) => void) => {
      const doc = parse(decode(good({ signWhat, email: 'pat@example.com' })));
      const signed = assertionOf(doc);
      const forged = signed.cloneNode(true) as Element;
      forged.setAttribute('ID', '_forged');
      forged.getElementsByTagNameNS(SAML, 'NameID')[0]!.textContent = 'boss@example.com';
      wrap(doc, signed, forged);
      return encode(new XMLSerializer().serializeToString(doc));
    };
    const extensions = (doc: Document) => {
      const ext = doc.createElementNS(SAMLP, 'samlp:Extensions');
      const response = doc.documentElement!;
      response.insertBefore(ext, response.getElementsByTagNameNS(SAMLP, 'Status')[0]!);
      return ext;
    };
    const wrappings: Array<[string, () => string]> = [
      [
        'the signed assertion hidden in Extensions, an unsigned forged one in its place',
        () =>
          forge('assertion', (doc, signed, forged) => {
            for (const s of Array.from(forged.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature'))) forged.removeChild(s);
            doc.documentElement!.replaceChild(forged, signed);
            extensions(doc).appendChild(signed);
          }),
      ],
      [
        "the forged assertion carrying the original's signature, the original hidden in Extensions",
        () =>
          forge('assertion', (doc, signed, forged) => {
            doc.documentElement!.replaceChild(forged, signed);
            extensions(doc).appendChild(signed);
          }),
      ],
      [
        'a forged assertion beside the signed one',
        () => forge('assertion', (doc, _signed, forged) => doc.documentElement!.appendChild(forged)),
      ],
      [
        'the signed response wrapped inside a new, unsigned response with a forged assertion',
        () => {
          const inner = parse(decode(good({ signWhat: 'response' }))).documentElement!;
          const outer = parse(decode(good({ signWhat: 'none', email: 'boss@example.com' })));
          const ext = extensions(outer);
          ext.appendChild(outer.importNode(inner, true));
          return encode(new XMLSerializer().serializeToString(outer));
        },
      ],
    ];
    it.each(wrappings)('refuses %s', async (_name, make) => {
      expect(await refusal(verifySamlResponse({ sp, idp: config, samlResponse: make() }))).toBe('signature');
    });
  });
});
