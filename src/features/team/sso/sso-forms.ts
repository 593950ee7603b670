import {
  createOidcProvider, createSamlProvider, emailDomainSchema, SSO_BRAND_LABELS, SSO_BRANDS, updateSsoProvider,
  type SsoBrand, type SsoProtocol, type SsoProvider,
} from '../../../../schema/api/calls-sso.ts';
import type { PillTone } from '../../../components/status-pill.tsx';
import { formatLocalDateTime } from '../../../lib/format.ts';

/**
 * The single sign-on page's pure parts (issue 14): brand → protocol, the add/replace forms → the
 * calls' bodies (checked with the calls' own schemas, as the server does), where a server refusal
 * goes, a provider's status words and what the admin pastes at their identity provider.
 */

/** What each identity provider's admin console offers first: SAML for the enterprise directories, OIDC for Auth0. */
export const DEFAULT_PROTOCOL: Record<SsoBrand, SsoProtocol> = {
  OKTA: 'saml', RIPPLING: 'saml', MICROSOFT_ENTRA_ID: 'saml', ADP: 'saml', ONELOGIN: 'saml', JUMPCLOUD: 'saml',
  ADFS: 'saml', AUTH0: 'oidc', DUO: 'saml', OTHER: 'saml',
};

export const BRAND_OPTIONS = SSO_BRANDS.map((b) => ({ value: b, label: SSO_BRAND_LABELS[b] }));
export const PROTOCOL_LABELS: Record<SsoProtocol, string> = { saml: 'SAML 2.0', oidc: 'OpenID Connect' };
export const PROTOCOL_OPTIONS = (['saml', 'oidc'] as const).map((p) => ({ value: p, label: PROTOCOL_LABELS[p] }));

/** SAML metadata arrives either as the IdP's metadata URL or as its XML pasted in. */
export type MetadataSource = 'url' | 'xml';

export interface ProviderFormValues {
  brand: SsoBrand;
  protocol: SsoProtocol;
  domain: string;
  source: MetadataSource;
  metadata_url: string;
  metadata_xml: string;
  issuer: string;
  client_id: string;
  client_secret: string;
}

export type ProviderField = 'brand' | 'protocol' | 'domain' | 'metadata_url' | 'metadata_xml' | 'issuer' | 'client_id' | 'client_secret';
export type ProviderFieldErrors = Partial<Record<ProviderField, string>>;

export const emptyProviderValues = (brand: SsoBrand = 'OKTA'): ProviderFormValues => ({
  brand, protocol: DEFAULT_PROTOCOL[brand], domain: '', source: 'url', metadata_url: '', metadata_xml: '', issuer: '', client_id: '', client_secret: '',
});

/** A brand change suggests its protocol unless the admin already picked one themselves. */
export function withBrand(v: ProviderFormValues, brand: SsoBrand, protocolTouched: boolean): ProviderFormValues {
  return { ...v, brand, protocol: protocolTouched ? v.protocol : DEFAULT_PROTOCOL[brand] };
}

/** An http(s) URL as typed: the server decides the rest (https only, reachable: BUSINESS_7004). */
function urlError(value: string, what: string): string | null {
  const v = value.trim();
  if (!v) return `Enter the ${what}.`;
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return `The ${what} must start with https://.`;
  } catch {
    return `The ${what} must be a full URL such as https://example.okta.com/…`;
  }
  return null;
}

const firstIssue = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error?.issues[0]?.message ?? null);

/** The email domain as the server stores it ("@Example.com " → "example.com"), or why not. */
export function domainOf(input: string): { ok: true; domain: string } | { ok: false; error: string } {
  const raw = input.trim().replace(/^@/, '');
  if (!raw) return { ok: false, error: 'Enter your company’s email domain, e.g. example.com.' };
  const r = emailDomainSchema.safeParse(raw);
  return r.success ? { ok: true, domain: r.data } : { ok: false, error: 'Enter an email domain such as example.com (no @, no https://).' };
}

export type ProviderInput =
  | { protocol: 'saml'; body: { domain: string; brand: SsoBrand; metadata_url?: string; metadata_xml?: string } }
  | { protocol: 'oidc'; body: { domain: string; brand: SsoBrand; issuer: string; client_id: string; client_secret: string } };

/** The add dialog's values → the create call's input, or the errors per field. */
export function providerInput(v: ProviderFormValues): { ok: true; input: ProviderInput } | { ok: false; errors: ProviderFieldErrors } {
  const errors: ProviderFieldErrors = {};
  const d = domainOf(v.domain);
  if (!d.ok) errors.domain = d.error;
  const domain = d.ok ? d.domain : '';
  if (v.protocol === 'saml') {
    const metadata = samlMetadata(v, errors);
    const body = { domain, brand: v.brand, ...metadata };
    const err = Object.keys(errors).length ? null : firstIssue(createSamlProvider.body.safeParse(body));
    if (err) errors.metadata_xml = err;
    return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input: { protocol: 'saml', body } };
  }
  const client = oidcClient(v, errors, true);
  const body = { domain, brand: v.brand, issuer: v.issuer.trim(), client_id: client.client_id ?? '', client_secret: client.client_secret ?? '' };
  const err = Object.keys(errors).length ? null : firstIssue(createOidcProvider.body.safeParse(body));
  if (err) errors.issuer = err;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, input: { protocol: 'oidc', body } };
}

function samlMetadata(v: ProviderFormValues, errors: ProviderFieldErrors): { metadata_url?: string; metadata_xml?: string } {
  if (v.source === 'url') {
    const e = urlError(v.metadata_url, 'metadata URL');
    if (e) errors.metadata_url = e;
    return { metadata_url: v.metadata_url.trim() };
  }
  const xml = v.metadata_xml.trim();
  if (!xml) errors.metadata_xml = 'Paste the metadata XML your identity provider shows.';
  else if (!xml.startsWith('<')) errors.metadata_xml = 'This is not XML: paste the whole metadata document, starting with <.';
  else if (xml.length > 200_000) errors.metadata_xml = 'The metadata is longer than 200,000 characters.';
  return { metadata_xml: xml };
}

/** `required`: a new provider needs both; a replacement may keep the stored secret (blank). */
function oidcClient(v: ProviderFormValues, errors: ProviderFieldErrors, required: boolean): { client_id?: string; client_secret?: string } {
  const e = urlError(v.issuer, 'issuer URL');
  if (e) errors.issuer = e;
  const client_id = v.client_id.trim();
  if (!client_id) errors.client_id = 'Enter the client ID your identity provider gave this app.';
  if (required && !v.client_secret) errors.client_secret = 'Enter the client secret.';
  return { client_id, ...(v.client_secret ? { client_secret: v.client_secret } : {}) };
}

/** "Replace metadata" / "Replace client": only the protocol's own fields; a blank secret keeps the stored one. */
export function replacementPatch(
  protocol: SsoProtocol, v: ProviderFormValues,
): { ok: true; patch: { metadata_url?: string; metadata_xml?: string; issuer?: string; client_id?: string; client_secret?: string } } | { ok: false; errors: ProviderFieldErrors } {
  const errors: ProviderFieldErrors = {};
  const patch = protocol === 'saml'
    ? samlMetadata(v, errors)
    : { issuer: v.issuer.trim(), ...oidcClient(v, errors, false) };
  const err = Object.keys(errors).length ? null : firstIssue(updateSsoProvider.body.safeParse(patch));
  if (err) errors[protocol === 'saml' ? 'metadata_url' : 'issuer'] = err;
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, patch };
}

/** The replace dialog starts from what is stored (never the secret, which the server does not answer). */
export function replacementValues(p: SsoProvider): ProviderFormValues {
  return {
    ...emptyProviderValues(p.brand),
    protocol: p.protocol,
    domain: p.domain,
    source: p.saml && !p.saml.metadata_url ? 'xml' : 'url',
    metadata_url: p.saml?.metadata_url ?? '',
    issuer: p.oidc?.issuer ?? '',
    client_id: p.oidc?.client_id ?? '',
  };
}

/**
 * Where a form's refusal is shown: BUSINESS_7004 (URL invalid or unreachable) and BUSINESS_7014
 * (not metadata / not OIDC discovery) on the field that was sent, AUTH_7030 (domain taken) on the
 * domain; field-level validation details by their path. Anything else stays above the form.
 */
export function serverFieldErrors(
  protocol: SsoProtocol, source: MetadataSource, error: { error_code: string; message: string; errors?: Record<string, string> },
): ProviderFieldErrors {
  const out: ProviderFieldErrors = {};
  const sent: ProviderField = protocol === 'oidc' ? 'issuer' : source === 'xml' ? 'metadata_xml' : 'metadata_url';
  if (error.error_code === 'BUSINESS_7004' || error.error_code === 'BUSINESS_7014') out[sent] = error.message;
  if (error.error_code === 'AUTH_7030') out.domain = error.message;
  for (const [path, message] of Object.entries(error.errors ?? {})) {
    const key = path.replace(/^body\./, '').split('.')[0] as ProviderField;
    if (FIELDS.includes(key)) out[key] ??= message;
  }
  return out;
}
const FIELDS: readonly ProviderField[] = ['brand', 'protocol', 'domain', 'metadata_url', 'metadata_xml', 'issuer', 'client_id', 'client_secret'];

/** The actions a provider row offers; each refusal is said beside the action that was refused. */
export type ProviderAction = 'enable' | 'disable' | 'enforce' | 'unenforce' | 'delete';

export type ProviderStatus = 'Domain not verified' | 'Draft' | 'Enabled' | 'Enforced';
export function providerStatus(
  p: Pick<SsoProvider, 'enabled' | 'enforced' | 'domain' | 'domain_status'>,
): { label: ProviderStatus; tone: PillTone; description: string } {
  if (p.domain_status === 'pending') {
    return { label: 'Domain not verified', tone: 'warn', description: `Nobody signs in through it until you prove your business owns ${p.domain}, then enable it.` };
  }
  if (p.enabled && p.enforced) return { label: 'Enforced', tone: 'ok', description: 'Everyone on this domain must sign in through it: passwords and email links are refused.' };
  if (p.enabled) return { label: 'Enabled', tone: 'info', description: 'People on this domain can sign in through it, or with their password.' };
  return { label: 'Draft', tone: 'neutral', description: 'Nobody signs in through it until it is enabled.' };
}

/** Verified means someone has signed in through it: the proof the setup works, which enforcement needs. */
export const lastUsedText = (p: Pick<SsoProvider, 'verified_at'>): string =>
  p.verified_at ? `Last used ${formatLocalDateTime(p.verified_at)}` : 'Not yet used';

export interface SetupValue {
  label: string;
  value: string;
  hint: string;
}

/** What the admin pastes at their identity provider, in the words most admin consoles use. */
export function setupValues(p: SsoProvider): SetupValue[] {
  if (p.saml) {
    return [
      { label: 'Entity ID (Audience URI)', value: p.saml.sp_entity_id, hint: 'Also called “SP Entity ID” or “Identifier”.' },
      { label: 'ACS URL (Single sign-on URL)', value: p.saml.acs_url, hint: 'Also called “Reply URL” or “Assertion Consumer Service URL”. Use HTTP-POST.' },
      { label: 'Service provider metadata URL', value: p.saml.sp_metadata_url, hint: 'Some identity providers read everything above from this one URL.' },
    ];
  }
  if (p.oidc) {
    return [{ label: 'Redirect URI', value: p.oidc.redirect_uri, hint: 'Also called “Sign-in redirect URI” or “Callback URL”. Scopes: openid, email, profile.' }];
  }
  return [];
}

/** Why Enable and Enforce wait while the domain is pending. */
export const PENDING_DOMAIN_REASON = 'Enable and Enforce become available once the domain is verified.';

/** The plain steps of the DNS proof, for the admin of a pending domain. */
export const domainProofSteps = (domain: string): string[] => [
  `Sign in to the company that hosts DNS for ${domain} (your registrar or DNS provider, e.g. Cloudflare, GoDaddy, Route 53).`,
  'Add a TXT record with the name and value below. Some DNS hosts want only the first part of the name (_ledgerline-challenge), adding the domain themselves.',
  'Choose Verify. New records can take a few minutes, sometimes hours, to be seen: verify again if it is not found yet.',
];

/** The row's line under the domain: "Okta · SAML 2.0". */
export const providerSummary = (p: Pick<SsoProvider, 'brand' | 'protocol'>): string => `${SSO_BRAND_LABELS[p.brand]} · ${PROTOCOL_LABELS[p.protocol]}`;
