import { describe, expect, it } from 'vitest';
import { SSO_BRANDS, ssoProviderSchema, type SsoProvider } from '../../../../schema/api/calls-sso.ts';
import { errorBody } from '../../../../schema/errors.ts';
import {
  DEFAULT_PROTOCOL, domainOf, emptyProviderValues, lastUsedText, providerInput, providerStatus, replacementPatch, replacementValues,
  serverFieldErrors, setupValues, withBrand, type ProviderFormValues,
} from './sso-forms.ts';

const ID = '70000000-0000-4000-8000-000000000001';
const BIZ = '70000000-0000-4000-8000-000000000002';
const provider = (over: Partial<SsoProvider> = {}): SsoProvider => ssoProviderSchema.parse({
  id: ID, business_id: BIZ, protocol: 'oidc', brand: 'AUTH0', domain: 'example.com', enabled: false, enforced: false, verified_at: null,
  domain_status: 'proven', domain_proven_at: '2026-11-27T05:00:00Z',
  domain_challenge: { record_name: '_ledgerline-challenge.example.com', record_value: 'ledgerline-domain-verification=abc' },
  saml: null,
  oidc: { issuer: 'https://idp.example.com', client_id: 'ledgerline', has_client_secret: true, redirect_uri: 'https://app.example/v1/public/sso/oidc/callback' },
  created_at: '2026-11-27T06:00:00Z', updated_at: '2026-11-27T06:00:00Z', ...over,
});
const samlProvider = () => provider({
  protocol: 'saml', brand: 'OKTA', oidc: null,
  saml: {
    metadata_url: 'https://okta.example/metadata', idp_entity_id: 'http://www.okta.com/x', idp_sso_url: 'https://okta.example/sso',
    certificate_fingerprints: ['AA:BB'], sp_entity_id: 'https://app.example/sp', acs_url: 'https://app.example/acs', sp_metadata_url: 'https://app.example/meta',
  },
});
const form = (over: Partial<ProviderFormValues>): ProviderFormValues => ({ ...emptyProviderValues(), ...over });

describe('brand → protocol', () => {
  it('has a default for every brand; the enterprise directories suggest SAML, Auth0 OIDC', () => {
    for (const b of SSO_BRANDS) expect(['saml', 'oidc']).toContain(DEFAULT_PROTOCOL[b]);
    expect(DEFAULT_PROTOCOL.OKTA).toBe('saml');
    expect(DEFAULT_PROTOCOL.MICROSOFT_ENTRA_ID).toBe('saml');
    expect(DEFAULT_PROTOCOL.AUTH0).toBe('oidc');
  });
  it.each([
    { touched: false, expected: 'oidc' },
    { touched: true, expected: 'saml' },
  ] as const)('a brand change suggests its protocol unless the admin chose one (touched: $touched)', ({ touched, expected }) => {
    expect(withBrand(form({ brand: 'OKTA', protocol: 'saml' }), 'AUTH0', touched)).toMatchObject({ brand: 'AUTH0', protocol: expected });
  });
});

describe('domain', () => {
  it.each([
    ['Example.COM ', 'example.com'],
    ['@example.co.uk', 'example.co.uk'],
  ])('%j is stored as %j', (input, domain) => expect(domainOf(input)).toEqual({ ok: true, domain }));
  it.each(['', 'example', 'https://example.com', 'a@example.com', 'exa mple.com'])('%j is refused with words', (input) => {
    const r = domainOf(input);
    expect(r.ok).toBe(false);
  });
});

describe('add form → create call', () => {
  it('OIDC: issuer, client id and secret, the domain normalised', () => {
    const r = providerInput(form({ brand: 'AUTH0', protocol: 'oidc', domain: ' Example.com', issuer: ' https://idp.example.com ', client_id: ' app ', client_secret: 's3cret' }));
    expect(r).toEqual({
      ok: true,
      input: { protocol: 'oidc', body: { domain: 'example.com', brand: 'AUTH0', issuer: 'https://idp.example.com', client_id: 'app', client_secret: 's3cret' } },
    });
  });
  it('SAML by URL sends only the URL; by XML only the XML', () => {
    expect(providerInput(form({ domain: 'example.com', source: 'url', metadata_url: 'https://okta.example/md', metadata_xml: '<x/>' }))).toEqual({
      ok: true, input: { protocol: 'saml', body: { domain: 'example.com', brand: 'OKTA', metadata_url: 'https://okta.example/md' } },
    });
    expect(providerInput(form({ domain: 'example.com', source: 'xml', metadata_url: 'https://x', metadata_xml: ' <EntityDescriptor/> ' }))).toEqual({
      ok: true, input: { protocol: 'saml', body: { domain: 'example.com', brand: 'OKTA', metadata_xml: '<EntityDescriptor/>' } },
    });
  });
  it.each([
    { name: 'empty OIDC form', values: form({ protocol: 'oidc' }), fields: ['client_id', 'client_secret', 'domain', 'issuer'] },
    { name: 'issuer not a URL', values: form({ protocol: 'oidc', domain: 'example.com', issuer: 'idp.example.com', client_id: 'a', client_secret: 'b' }), fields: ['issuer'] },
    { name: 'ftp metadata URL', values: form({ domain: 'example.com', metadata_url: 'ftp://okta.example/md' }), fields: ['metadata_url'] },
    { name: 'XML that is not XML', values: form({ domain: 'example.com', source: 'xml', metadata_xml: 'hello' }), fields: ['metadata_xml'] },
    { name: 'no XML', values: form({ domain: 'example.com', source: 'xml' }), fields: ['metadata_xml'] },
  ])('$name: errors on $fields', ({ values, fields }) => {
    const r = providerInput(values);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(fields);
  });
});

describe('replace', () => {
  it('starts from what is stored, never a secret', () => {
    expect(replacementValues(provider())).toMatchObject({ protocol: 'oidc', issuer: 'https://idp.example.com', client_id: 'ledgerline', client_secret: '' });
    expect(replacementValues(samlProvider())).toMatchObject({ protocol: 'saml', source: 'url', metadata_url: 'https://okta.example/metadata' });
  });
  it('a blank secret keeps the stored one; a typed one replaces it', () => {
    expect(replacementPatch('oidc', replacementValues(provider()))).toEqual({ ok: true, patch: { issuer: 'https://idp.example.com', client_id: 'ledgerline' } });
    expect(replacementPatch('oidc', { ...replacementValues(provider()), client_secret: 'new' })).toEqual({
      ok: true, patch: { issuer: 'https://idp.example.com', client_id: 'ledgerline', client_secret: 'new' },
    });
  });
  it('SAML sends the metadata only', () => {
    expect(replacementPatch('saml', { ...replacementValues(samlProvider()), source: 'xml', metadata_xml: '<m/>' })).toEqual({ ok: true, patch: { metadata_xml: '<m/>' } });
  });
});

describe('server refusals go beside their field', () => {
  const e = (code: Parameters<typeof errorBody>[0], message?: string) => errorBody(code, message).error_v2;
  it.each([
    { code: 'BUSINESS_7004', protocol: 'saml', source: 'url', field: 'metadata_url' },
    { code: 'BUSINESS_7014', protocol: 'saml', source: 'xml', field: 'metadata_xml' },
    { code: 'BUSINESS_7004', protocol: 'oidc', source: 'url', field: 'issuer' },
    { code: 'BUSINESS_7014', protocol: 'oidc', source: 'url', field: 'issuer' },
    { code: 'AUTH_7030', protocol: 'oidc', source: 'url', field: 'domain' },
  ] as const)('$code ($protocol, $source) → $field, in the server’s words', ({ code, protocol, source, field }) => {
    expect(serverFieldErrors(protocol, source, e(code, 'The server’s own words.'))).toEqual({ [field]: 'The server’s own words.' });
  });
  it('validation details by path; anything else stays above the form', () => {
    expect(serverFieldErrors('oidc', 'url', { ...e('REQUEST_7001'), errors: { 'body.client_id': 'Too long' } })).toEqual({ client_id: 'Too long' });
    expect(serverFieldErrors('oidc', 'url', e('AUTH_7042'))).toEqual({});
  });
});

describe('status and setup words', () => {
  it.each([
    { enabled: false, enforced: false, label: 'Draft' },
    { enabled: true, enforced: false, label: 'Enabled' },
    { enabled: true, enforced: true, label: 'Enforced' },
  ])('$label', ({ enabled, enforced, label }) =>
    expect(providerStatus({ enabled, enforced, domain: 'example.com', domain_status: 'proven' }).label).toBe(label));
  it('a pending domain says so, whatever else', () => {
    const s = providerStatus({ enabled: false, enforced: false, domain: 'example.com', domain_status: 'pending' });
    expect(s).toMatchObject({ label: 'Domain not verified', tone: 'warn' });
    expect(s.description).toBe('Nobody signs in through it until you prove your business owns example.com, then enable it.');
  });
  it('last used, or not yet', () => {
    expect(lastUsedText({ verified_at: null })).toBe('Not yet used');
    expect(lastUsedText({ verified_at: '2026-11-27T06:00:00Z' })).toMatch(/^Last used .*2026/);
  });
  it('what to paste: SAML entity id, ACS and metadata URLs; OIDC the redirect URI', () => {
    expect(setupValues(samlProvider()).map((s) => s.value)).toEqual(['https://app.example/sp', 'https://app.example/acs', 'https://app.example/meta']);
    expect(setupValues(provider()).map((s) => s.value)).toEqual(['https://app.example/v1/public/sso/oidc/callback']);
  });
});
