import { DOMParser } from '@xmldom/xmldom';
import { SamlError, type SamlFailure } from './errors.ts';

export const NS = {
  md: 'urn:oasis:names:tc:SAML:2.0:metadata',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  samlp: 'urn:oasis:names:tc:SAML:2.0:protocol',
  saml: 'urn:oasis:names:tc:SAML:2.0:assertion',
} as const;

export const SAML2_PROTOCOL = NS.samlp;
export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
export const CM_BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/**
 * Parses untrusted XML strictly: any parser error or warning refuses it, and so does a DOCTYPE
 * (SAML never needs one; refusing it rules out entity expansion tricks whatever the parser does).
 */
export function parseXml(xml: string, reason: SamlFailure, what: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw new SamlError(reason, `${what} contains a DOCTYPE, which SAML does not allow.`);
  const problems: string[] = [];
  const note = (msg: string) => problems.push(msg);
  let doc: Document | undefined;
  try {
    doc = new DOMParser({ locator: {}, errorHandler: { warning: note, error: note, fatalError: note } }).parseFromString(
      xml,
      'text/xml',
    );
  } catch (err) {
    note(String(err));
  }
  if (!doc?.documentElement || problems.length > 0) throw new SamlError(reason, `${what} is not well-formed XML.`);
  return doc;
}

/** Direct children of `el` with the given namespace and local name (never descendants: wrapping hides in depth). */
export function children(el: Element | null | undefined, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  if (!el) return out;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const e = n as Element;
      if (e.namespaceURI === ns && e.localName === localName) out.push(e);
    }
  }
  return out;
}

export const child = (el: Element | null | undefined, ns: string, localName: string): Element | null =>
  children(el, ns, localName)[0] ?? null;

/** An element's text (all text nodes joined, so a comment inside a NameID cannot truncate it), trimmed. */
export const text = (el: Element | null | undefined): string => (el?.textContent ?? '').trim();

export const is = (el: Element | null | undefined, ns: string, localName: string): el is Element =>
  !!el && el.namespaceURI === ns && el.localName === localName;

/** Attribute value or null when absent or empty. */
export const attr = (el: Element | null | undefined, name: string): string | null => {
  const v = el?.getAttribute(name);
  return v ? v : null;
};

