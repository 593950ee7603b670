import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import { outboundFetch, OutboundRefused } from '../../core/outbound-fetch.ts';
import { SamlError } from './errors.ts';
import { attr, BINDING_POST, BINDING_REDIRECT, children, is, NAMEID_EMAIL, NS, parseXml, SAML2_PROTOCOL } from './xml.ts';

/** What we keep of an identity provider. `certificates` are base64 DER (no PEM armour). */
export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
}

/** Our side of one provider: the entity id the IdP knows us by and where it posts responses. */
export interface SamlSp {
  entityId: string;
  acsUrl: string;
}

const METADATA_MAX_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5000;

const formatError = (why: string) => new SamlError('format', `This is not SAML 2.0 identity provider metadata: ${why}`);

function entityDescriptors(root: Element): Element[] {
  if (is(root, NS.md, 'EntityDescriptor')) return [root];
  if (is(root, NS.md, 'EntitiesDescriptor')) return children(root, NS.md, 'EntityDescriptor');
  return [];
}

const supportsSaml2 = (el: Element) => (attr(el, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL);

const httpUrl = (s: string | null): string | null => {
  if (!s) return null;
  try {
    const u = new URL(s.trim());
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
};

/** Signing certificates of an IDPSSODescriptor: KeyDescriptors with use="signing" or no use (both uses). */
function signingCertificates(idp: Element): string[] {
  const certs: string[] = [];
  for (const kd of children(idp, NS.md, 'KeyDescriptor')) {
    const use = attr(kd, 'use');
    if (use && use !== 'signing') continue;
    for (const keyInfo of children(kd, NS.ds, 'KeyInfo')) {
      for (const data of children(keyInfo, NS.ds, 'X509Data')) {
        for (const c of children(data, NS.ds, 'X509Certificate')) {
          const b64 = (c.textContent ?? '').replace(/\s+/g, '');
          try {
            new X509Certificate(Buffer.from(b64, 'base64'));
          } catch {
            throw formatError('one of its signing certificates cannot be read.');
          }
          if (!certs.includes(b64)) certs.push(b64);
        }
      }
    }
  }
  return certs;
}

/**
 * IdP metadata XML → what we keep. Accepts an EntityDescriptor, or an EntitiesDescriptor whose
 * first IdP entry is used. The Redirect binding is preferred because our AuthnRequest uses it; a
 * POST-only IdP's location is kept (most IdPs serve both bindings at one URL). Anything else
 * (not XML, not SAML 2.0 IdP metadata, no signing certificate, no usable SSO service) throws
 * SamlError('format'), which the routes answer as BUSINESS_7014.
 */
export function parseIdpMetadata(xml: string): SamlIdp {
  const doc = parseXml(xml, 'format', 'The metadata');
  const descriptors = entityDescriptors(doc.documentElement as Element);
  if (descriptors.length === 0) throw formatError('it has no EntityDescriptor.');
  for (const entity of descriptors) {
    const idp = children(entity, NS.md, 'IDPSSODescriptor').find(supportsSaml2);
    if (!idp) continue;
    const entityId = (attr(entity, 'entityID') ?? '').trim();
    if (!entityId) throw formatError('its EntityDescriptor has no entityID.');
    const services = children(idp, NS.md, 'SingleSignOnService');
    const pick = (binding: string) => httpUrl(attr(services.find((s) => attr(s, 'Binding') === binding), 'Location'));
    const ssoUrl = pick(BINDING_REDIRECT) ?? pick(BINDING_POST);
    if (!ssoUrl) throw formatError('it has no HTTP-Redirect or HTTP-POST SingleSignOnService with a web address.');
    const certificates = signingCertificates(idp);
    if (certificates.length === 0) throw formatError('it names no signing certificate.');
    return { entityId, ssoUrl, certificates };
  }
  throw formatError('it describes no SAML 2.0 identity provider (IDPSSODescriptor).');
}

/**
 * Fetches IdP metadata through the outbound fetch helper (server/core/outbound-fetch.ts): https
 * only (loopback http with the opt-in, for tests), public addresses only, each redirect checked,
 * 5 s and 1 MB. Every refusal and failure is SamlError('url') with the helper's one message
 * (BUSINESS_7004); a public server that answers something else than 200 says its status.
 */
export async function fetchIdpMetadata(
  url: string,
  opts: { allowLoopbackHttp?: boolean; dnsServer?: string | null; timeoutMs?: number } = {},
): Promise<string> {
  const shown = url.trim();
  let res: Response;
  try {
    res = await outboundFetch(shown, {
      headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1' },
    }, {
      allowLoopbackHttp: opts.allowLoopbackHttp === true, dnsServer: opts.dnsServer ?? null,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, maxBytes: METADATA_MAX_BYTES,
    });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new SamlError('url', `The metadata URL ${err.message}`);
    throw err;
  }
  if (res.status !== 200) throw new SamlError('url', `The metadata URL answered HTTP ${res.status}, not the metadata.`);
  return res.text();
}

/** SHA-256 of the DER bytes, upper-case colon-separated hex (what IdP consoles show). */
export function certificateFingerprint(certBase64Der: string): string {
  const hex = createHash('sha256').update(Buffer.from(certBase64Der.replace(/\s+/g, ''), 'base64')).digest('hex');
  return hex.toUpperCase().replace(/(..)(?!$)/g, '$1:');
}

/** Our SP metadata for the admin to give their IdP: unsigned requests, signed assertions wanted, email NameID. */
export function spMetadataXml(sp: SamlSp): string {
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: NAMEID_EMAIL,
    wantAssertionsSigned: true,
    generateUniqueId: newSamlId,
  });
}

/** SAML ids are xs:ID (must not start with a digit). */
export const newSamlId = (): string => `_${randomBytes(20).toString('hex')}`;
