import { foldEmail } from '../email-address.ts';
import { SamlError } from './errors.ts';
import { samlClient } from './login.ts';
import type { SamlIdp, SamlSp } from './metadata.ts';
import { attr, child, children, CM_BEARER, is, NAMEID_EMAIL, NS, parseXml, STATUS_SUCCESS, text } from './xml.ts';

/** What a verified sign-in assertion tells us. */
export interface SamlAssertion {
  email: string;
  nameId: string;
  assertionId: string;
  expiresAt: Date;
  sessionIndex: string | null;
  inResponseTo: string | null;
  issuer: string;
}

/** Allowed difference between our clock and the IdP's. */
export const SAML_CLOCK_SKEW_MS = 2 * 60 * 1000;
const RESPONSE_MAX_BYTES = 1024 * 1024;

const EMAIL_ATTRIBUTES = new Set([
  'email',
  'mail',
  'emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
]);
const EMAIL_SHAPE = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

function decode(samlResponse: string): string {
  const b64 = samlResponse.replace(/\s+/g, '');
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
    throw new SamlError('format', 'The sign-in response from the identity provider is not a SAML response.');
  }
  if ((b64.length * 3) / 4 > RESPONSE_MAX_BYTES) throw new SamlError('format', 'The sign-in response is too large.');
  return Buffer.from(b64, 'base64').toString('utf8');
}

function time(el: Element | null, name: string): number | null {
  const v = attr(el, name);
  if (v === null) return null;
  const ms = Date.parse(v);
  if (!Number.isFinite(ms)) throw new SamlError('format', `The assertion's ${name} is not a valid time.`);
  return ms;
}

function checkWindow(el: Element | null, nowMs: number): void {
  const notBefore = time(el, 'NotBefore');
  const notOnOrAfter = time(el, 'NotOnOrAfter');
  if (notBefore !== null && nowMs + SAML_CLOCK_SKEW_MS < notBefore) {
    throw new SamlError('not-yet-valid', 'The sign-in assertion is not valid yet; check the clock of the identity provider.');
  }
  if (notOnOrAfter !== null && nowMs - SAML_CLOCK_SKEW_MS >= notOnOrAfter) {
    throw new SamlError('expired', 'The sign-in assertion has expired; sign in again.');
  }
}

function checkStatus(response: Element): void {
  const status = child(response, NS.samlp, 'Status');
  const code = child(status, NS.samlp, 'StatusCode');
  if (attr(code, 'Value') === STATUS_SUCCESS) return;
  const detail = attr(child(code, NS.samlp, 'StatusCode'), 'Value') ?? attr(code, 'Value') ?? 'no status';
  const message = text(child(status, NS.samlp, 'StatusMessage')).slice(0, 200);
  throw new SamlError(
    'status',
    `The identity provider did not sign you in (${detail.split(':').pop()}${message ? `: ${message}` : ''}).`,
  );
}

/** Runs node-saml's signature checks and answers the signed assertion's XML (never the unsigned copy). */
async function signedAssertionXml(sp: SamlSp, idp: SamlIdp, xml: string): Promise<string> {
  const refuse = () =>
    new SamlError('signature', "The identity provider's signature did not verify with the certificate configured for it.");
  try {
    const { profile } = await samlClient(sp, idp).validatePostResponseAsync({
      SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'),
    });
    const assertion = profile?.getAssertionXml?.();
    if (!assertion) throw refuse();
    return assertion;
  } catch (err) {
    if (err instanceof SamlError) throw err;
    throw refuse();
  }
}

function emailOf(assertion: Element, nameIdEl: Element | null): string | null {
  const candidates: string[] = [];
  if (attr(nameIdEl, 'Format') === NAMEID_EMAIL) candidates.push(text(nameIdEl));
  for (const statement of children(assertion, NS.saml, 'AttributeStatement')) {
    for (const a of children(statement, NS.saml, 'Attribute')) {
      const names = [attr(a, 'Name'), attr(a, 'FriendlyName')].map((n) => (n ?? '').toLowerCase());
      if (!names.some((n) => EMAIL_ATTRIBUTES.has(n))) continue;
      const value = children(a, NS.saml, 'AttributeValue')[0];
      if (value) candidates.push(text(value));
    }
  }
  const email = candidates.find((c) => c.length <= 320 && EMAIL_SHAPE.test(c));
  return email ? foldEmail(email) : null;
}

function checkIssuer(response: Element, assertion: Element, idp: SamlIdp): string {
  const issuer = text(child(assertion, NS.saml, 'Issuer'));
  const responseIssuer = child(response, NS.saml, 'Issuer');
  if (issuer !== idp.entityId || (responseIssuer && text(responseIssuer) !== idp.entityId)) {
    throw new SamlError('issuer', `The response comes from ${issuer || 'an unnamed issuer'}, not the identity provider configured here.`);
  }
  return issuer;
}

/** The bearer SubjectConfirmationData: it must name our ACS and carry an expiry (SAML Web SSO profile). */
function checkConfirmation(response: Element, subject: Element | null, sp: SamlSp) {
  const bearer = children(subject, NS.saml, 'SubjectConfirmation').find((c) => attr(c, 'Method') === CM_BEARER);
  const confirmation = child(bearer, NS.saml, 'SubjectConfirmationData');
  const confirmationExpiry = time(confirmation, 'NotOnOrAfter');
  if (!confirmation || confirmationExpiry === null) {
    throw new SamlError('format', 'The assertion has no bearer subject confirmation with an expiry.');
  }
  const destination = attr(response, 'Destination');
  if ((destination !== null && destination !== sp.acsUrl) || attr(confirmation, 'Recipient') !== sp.acsUrl) {
    throw new SamlError('destination', 'The response was addressed to another application; check the ACS URL set at the identity provider.');
  }
  return { confirmation, confirmationExpiry };
}

/** Every AudienceRestriction must name us (each one restricts; SAML core 2.5.1.4), and there must be one. */
function checkAudience(conditions: Element | null, sp: SamlSp): void {
  const restrictions = children(conditions, NS.saml, 'AudienceRestriction');
  const audiences = (r: Element) => children(r, NS.saml, 'Audience').map(text);
  if (restrictions.length === 0 || !restrictions.every((r) => audiences(r).includes(sp.entityId))) {
    throw new SamlError('audience', 'The assertion was issued for another application; check the entity ID set at the identity provider.');
  }
}

function checkInResponseTo(expected: string | null | undefined, values: string[]): void {
  if (expected === undefined) return; // IdP-initiated sign-in is allowed by the caller
  if (expected === null) {
    throw new SamlError('in-response-to', 'This sign-in was not started here, or it was started too long ago; start again.');
  }
  if (values.length === 0 || values.some((v) => v !== expected)) {
    throw new SamlError('in-response-to', 'This sign-in response answers a different request; start again.');
  }
}

/**
 * Validates a POSTed SAMLResponse (base64) against the provider's IdP and our SP; answers the
 * assertion or throws a SamlError whose reason says what was wrong. `expectedRequestId`: the id
 * samlLoginUrl answered for this browser's sign-in (InResponseTo must match); `undefined` accepts
 * an IdP-initiated response; `null` (no sign-in of ours pending) refuses every response.
 *
 * node-saml verifies the XML signature (response or assertion,
 * by one of the IdP's certificates; it refuses unsigned assertions, several assertions and the
 * known wrapping shapes); every other check reads the assertion node-saml verified, plus the
 * Response envelope, whose attributes are authentic only when the Response itself is signed, which
 * is why Destination and InResponseTo are also checked on the signed SubjectConfirmationData.
 */
export async function verifySamlResponse(opts: {
  sp: SamlSp;
  idp: SamlIdp;
  samlResponse: string;
  expectedRequestId?: string | null;
  now?: Date;
}): Promise<SamlAssertion> {
  const { sp, idp } = opts;
  const nowMs = (opts.now ?? new Date()).getTime();
  const xml = decode(opts.samlResponse);
  const response = parseXml(xml, 'format', 'The sign-in response').documentElement as Element;
  if (!is(response, NS.samlp, 'Response')) {
    throw new SamlError('format', 'The sign-in response from the identity provider is not a SAML response.');
  }
  checkStatus(response);
  if (children(response, NS.saml, 'EncryptedAssertion').length > 0) {
    throw new SamlError('format', 'The identity provider encrypted its assertion; turn assertion encryption off for this app.');
  }
  if (children(response, NS.saml, 'Assertion').length === 0) throw new SamlError('format', 'The sign-in response carries no assertion.');
  const assertion = parseXml(await signedAssertionXml(sp, idp, xml), 'format', 'The assertion').documentElement as Element;
  if (!is(assertion, NS.saml, 'Assertion')) throw new SamlError('format', 'The signed element is not an assertion.');

  const issuer = checkIssuer(response, assertion, idp);
  const subject = child(assertion, NS.saml, 'Subject');
  const { confirmation, confirmationExpiry } = checkConfirmation(response, subject, sp);
  const conditions = child(assertion, NS.saml, 'Conditions');
  checkWindow(conditions, nowMs);
  checkWindow(confirmation, nowMs);
  checkAudience(conditions, sp);

  const inResponseTo = [attr(response, 'InResponseTo'), attr(confirmation, 'InResponseTo')].filter((v): v is string => v !== null);
  checkInResponseTo(opts.expectedRequestId, inResponseTo);

  const assertionId = attr(assertion, 'ID');
  if (!assertionId) throw new SamlError('format', 'The assertion has no ID.');
  const nameIdEl = child(subject, NS.saml, 'NameID');
  const email = emailOf(assertion, nameIdEl);
  if (!email) {
    throw new SamlError('no-email', 'The identity provider did not send an email address; set the NameID format to email address.');
  }
  const conditionsExpiry = time(conditions, 'NotOnOrAfter');
  return {
    email,
    nameId: text(nameIdEl) || email,
    assertionId,
    expiresAt: new Date(conditionsExpiry === null ? confirmationExpiry : Math.min(conditionsExpiry, confirmationExpiry)),
    sessionIndex: attr(child(assertion, NS.saml, 'AuthnStatement'), 'SessionIndex'),
    inResponseTo: inResponseTo[0] ?? null,
    issuer,
  };
}
