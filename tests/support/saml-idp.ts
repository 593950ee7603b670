/**
 * A real SAML 2.0 identity provider for tests, on 127.0.0.1 at a random port. It makes its own
 * RSA keys and self-signed certificate at start (node:crypto makes keys but not X.509
 * certificates, hence @peculiar/x509), and a second, "rogue" pair whose signatures must be refused.
 *
 * - GET /metadata: its IdP metadata.
 * - GET /sso?SAMLRequest=…&RelayState=… (HTTP-Redirect binding): decodes the AuthnRequest and
 *   answers a sign-in page (email prefilled with `loginAs`); its form POSTs to /sso/login, which
 *   answers an auto-submitting form POSTing SAMLResponse + RelayState to the request's ACS URL.
 * - signResponse(): a base64 SAMLResponse for tests that post to an ACS directly, with every knob
 *   a refusal test needs (times, audience, issuer, destination, status, key, what is signed).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const STATUS = 'urn:oasis:names:tc:SAML:2.0:status:';
const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const TOP_LEVEL_STATUSES = ['Success', 'Requester', 'Responder', 'VersionMismatch'];

export interface SamlSpRef {
  entityId: string;
  acsUrl: string;
}

export interface SignResponseOptions {
  sp: SamlSpRef;
  /** null: a persistent opaque NameID and no email attribute. */
  email: string | null;
  /** Where the email travels: the NameID (emailAddress format, default) or an `email` attribute. */
  emailIn?: 'nameid' | 'attribute';
  inResponseTo?: string;
  audience?: string;
  issuer?: string;
  /** Response Destination and SubjectConfirmationData Recipient (default sp.acsUrl). */
  destination?: string;
  now?: Date;
  notBefore?: Date;
  /** Conditions and SubjectConfirmationData NotOnOrAfter (default now + 5 min). */
  notOnOrAfter?: Date;
  assertionId?: string;
  sessionIndex?: string;
  key?: 'good' | 'rogue';
  /** A status code URN or its last part (e.g. 'AuthnFailed'); not Success → no assertion. */
  status?: string;
  signWhat?: 'assertion' | 'response' | 'both' | 'none';
}

export interface ReceivedAuthnRequest {
  id: string;
  issuer: string;
  acsUrl: string | null;
  destination: string | null;
  nameIdFormat: string | null;
  relayState: string | null;
}

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  metadataUrl: string;
  metadataXml: string;
  /** The signing certificate, base64 DER. */
  certBase64: string;
  rogueCertBase64: string;
  signResponse(o: SignResponseOptions): string;
  /** Prefills the sign-in page's email (null: empty). */
  loginAs(email: string | null): void;
  /** AuthnRequests received at /sso, oldest first. */
  readonly requests: ReceivedAuthnRequest[];
  close(): Promise<void>;
}

interface Signer {
  privateKeyPem: string;
  certPem: string;
  certBase64: string;
}

const pem = (label: string, der: ArrayBuffer | Buffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der as ArrayBuffer).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;

async function makeSigner(commonName: string): Promise<Signer> {
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };
  const keys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 24 * 3600_000),
    notAfter: new Date(Date.now() + 365 * 24 * 3600_000),
    signingAlgorithm: alg,
    keys,
  });
  const certDer = Buffer.from(cert.rawData);
  return {
    privateKeyPem: pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', keys.privateKey)),
    certPem: pem('CERTIFICATE', certDer),
    certBase64: certDer.toString('base64'),
  };
}

const esc = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const id = () => `_${randomBytes(16).toString('hex')}`;
const iso = (d: Date) => d.toISOString();

function signXml(xml: string, what: 'Response' | 'Assertion', signer: Signer): string {
  const target = what === 'Response' ? "/*[local-name(.)='Response']" : "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";
  const sig = new SignedXml({
    privateKey: signer.privateKeyPem,
    publicCert: signer.certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: target,
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

function statusXml(status: string): string {
  const code = status.startsWith('urn:') ? status : STATUS + status;
  const short = code.slice(code.lastIndexOf(':') + 1);
  if (short === 'Success') return `<samlp:Status><samlp:StatusCode Value="${esc(code)}"/></samlp:Status>`;
  const top = TOP_LEVEL_STATUSES.includes(short) ? code : `${STATUS}Responder`;
  const nested = top === code ? '' : `<samlp:StatusCode Value="${esc(code)}"/>`;
  return `<samlp:Status><samlp:StatusCode Value="${esc(top)}">${nested}</samlp:StatusCode><samlp:StatusMessage>The test IdP refused the sign-in.</samlp:StatusMessage></samlp:Status>`;
}

function assertionXml(o: SignResponseOptions, issuer: string, now: Date): string {
  const notOnOrAfter = iso(o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000));
  const notBefore = iso(o.notBefore ?? new Date(now.getTime() - 30_000));
  const destination = o.destination ?? o.sp.acsUrl;
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
  const inNameId = o.email !== null && (o.emailIn ?? 'nameid') === 'nameid';
  const nameId = inNameId
    ? `<saml:NameID Format="${NAMEID_EMAIL}">${esc(o.email ?? '')}</saml:NameID>`
    : `<saml:NameID Format="${NAMEID_PERSISTENT}">${randomBytes(12).toString('hex')}</saml:NameID>`;
  const attributes =
    o.email !== null && o.emailIn === 'attribute'
      ? `<saml:AttributeStatement><saml:Attribute Name="email" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue>${esc(o.email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
      : '';
  return (
    `<saml:Assertion xmlns:saml="${SAML}" ID="${esc(o.assertionId ?? id())}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${esc(issuer)}</saml:Issuer>` +
    `<saml:Subject>${nameId}<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${esc(destination)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction>` +
    `<saml:Audience>${esc(o.audience ?? o.sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${esc(o.sessionIndex ?? id())}"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
    `</saml:AuthnContext></saml:AuthnStatement>${attributes}</saml:Assertion>`
  );
}

function buildResponse(o: SignResponseOptions, entityId: string, signers: { good: Signer; rogue: Signer }): string {
  const now = o.now ?? new Date();
  const issuer = o.issuer ?? entityId;
  const success = (o.status ?? 'Success').endsWith('Success');
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${esc(o.inResponseTo)}"` : '';
  let xml =
    `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${id()}" Version="2.0" IssueInstant="${iso(now)}"` +
    ` Destination="${esc(o.destination ?? o.sp.acsUrl)}"${inResponseTo}>` +
    `<saml:Issuer>${esc(issuer)}</saml:Issuer>${statusXml(o.status ?? 'Success')}` +
    `${success ? assertionXml(o, issuer, now) : ''}</samlp:Response>`;
  const signer = signers[o.key ?? 'good'];
  const what = o.signWhat ?? 'assertion';
  if (success && (what === 'assertion' || what === 'both')) xml = signXml(xml, 'Assertion', signer);
  if (what === 'response' || what === 'both' || (!success && what !== 'none')) xml = signXml(xml, 'Response', signer);
  return Buffer.from(xml, 'utf8').toString('base64');
}

function metadata(entityId: string, ssoUrl: string, certBase64: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(entityId)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${SAMLP}">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>${NAMEID_EMAIL}</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${esc(ssoUrl)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>`
  );
}

function decodeAuthnRequest(samlRequest: string, relayState: string | null): ReceivedAuthnRequest {
  const xml = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (!root || root.namespaceURI !== SAMLP || root.localName !== 'AuthnRequest') throw new Error('not an AuthnRequest');
  const first = (ns: string, name: string) => root.getElementsByTagNameNS(ns, name)[0] ?? null;
  return {
    id: root.getAttribute('ID') ?? '',
    issuer: (first(SAML, 'Issuer')?.textContent ?? '').trim(),
    acsUrl: root.getAttribute('AssertionConsumerServiceURL') || null,
    destination: root.getAttribute('Destination') || null,
    nameIdFormat: first(SAMLP, 'NameIDPolicy')?.getAttribute('Format') || null,
    relayState,
  };
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${esc(title)}</title></head><body><main>${body}</main></body></html>`;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 64 * 1024) throw new Error('form too large');
  }
  return new URLSearchParams(body);
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
}

export async function startSamlIdp(opts: { entityId?: string; loginAs?: string } = {}): Promise<TestSamlIdp> {
  const [good, rogue] = await Promise.all([makeSigner('Ledgerline test IdP'), makeSigner('Rogue IdP')]);
  const signers = { good, rogue };
  const requests: ReceivedAuthnRequest[] = [];
  const pending = new Map<string, ReceivedAuthnRequest & { acsUrl: string }>();
  let prefill = opts.loginAs ?? null;
  let base = '';
  let entityId = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    if (req.method === 'GET' && url.pathname === '/metadata') {
      return send(res, 200, 'application/samlmetadata+xml', metadata(entityId, `${base}/sso`, good.certBase64));
    }
    if (req.method === 'GET' && url.pathname === '/sso') {
      const samlRequest = url.searchParams.get('SAMLRequest');
      let request: ReceivedAuthnRequest;
      try {
        request = decodeAuthnRequest(samlRequest ?? '', url.searchParams.get('RelayState'));
      } catch {
        return send(res, 400, 'text/html', page('Bad request', '<h1>That is not a SAML AuthnRequest.</h1>'));
      }
      requests.push(request);
      if (!request.acsUrl) return send(res, 400, 'text/html', page('Bad request', '<h1>The request names no ACS URL.</h1>'));
      const token = randomBytes(16).toString('hex');
      pending.set(token, { ...request, acsUrl: request.acsUrl });
      return send(
        res,
        200,
        'text/html',
        page(
          'Sign in — test IdP',
          `<h1>Test identity provider</h1><p>Signing in to ${esc(request.issuer)}</p>` +
            `<form method="post" action="/sso/login"><label for="email">Email</label> ` +
            `<input id="email" name="email" type="email" required autocomplete="username" value="${esc(prefill ?? '')}">` +
            `<input type="hidden" name="request" value="${token}"> <button type="submit">Sign in</button></form>`,
        ),
      );
    }
    if (req.method === 'POST' && url.pathname === '/sso/login') {
      const form = await readForm(req);
      const request = pending.get(form.get('request') ?? '');
      const email = (form.get('email') ?? '').trim();
      if (!request || !email) return send(res, 400, 'text/html', page('Bad request', '<h1>Unknown or finished sign-in.</h1>'));
      pending.delete(form.get('request') ?? '');
      const samlResponse = buildResponse(
        { sp: { entityId: request.issuer, acsUrl: request.acsUrl }, email, inResponseTo: request.id, signWhat: 'both' },
        entityId,
        signers,
      );
      const relay = request.relayState === null ? '' : `<input type="hidden" name="RelayState" value="${esc(request.relayState)}">`;
      return send(
        res,
        200,
        'text/html',
        page(
          'Signing in…',
          `<form method="post" action="${esc(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${samlResponse}">${relay}` +
            `<noscript><button type="submit">Continue</button></noscript></form><script>document.forms[0].submit()</script>`,
        ),
      );
    }
    send(res, 404, 'text/plain', 'not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'test IdP error');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  entityId = opts.entityId ?? `${base}/metadata`;
  return {
    entityId,
    ssoUrl: `${base}/sso`,
    metadataUrl: `${base}/metadata`,
    metadataXml: metadata(entityId, `${base}/sso`, good.certBase64),
    certBase64: good.certBase64,
    rogueCertBase64: rogue.certBase64,
    signResponse: (o) => buildResponse(o, entityId, signers),
    loginAs: (email) => {
      prefill = email;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
