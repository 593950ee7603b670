import { describe, expect, it } from 'vitest';
import {
  canSignIn, emailDomain, enforcingProvider, providerChangeRefusal, removalRefusal, type SsoRuleProvider, type SsoRuleUser,
} from './sso-rules.ts';

const p = (over: Partial<SsoRuleProvider> = {}): SsoRuleProvider => ({
  id: 'p1', domain: 'acme.com', enabled: true, enforced: false, verified: true, domainProven: true, ...over,
});
const u = (email: string, over: Partial<SsoRuleUser> = {}): SsoRuleUser => ({
  email, role: 'BUSINESS_USER', status: 'ACTIVE', deleted: false, ...over,
});
const admin = (email: string, over: Partial<SsoRuleUser> = {}) => u(email, { role: 'BUSINESS_ADMIN', ...over });

describe('emailDomain and enforcingProvider', () => {
  it.each([
    ['ada@Acme.COM', 'acme.com'],
    ['weird@name@acme.com', 'acme.com'],
    ['no-at-sign', ''],
  ])('%s → %s', (email, domain) => expect(emailDomain(email)).toBe(domain));

  it.each([
    ['enabled and enforced', p({ enforced: true }), 'ada@acme.com', true],
    ['not enforced', p(), 'ada@acme.com', false],
    ['other domain', p({ enforced: true }), 'ada@other.com', false],
    ['subdomain is another domain', p({ enforced: true }), 'ada@eu.acme.com', false],
  ])('%s', (_name, provider, email, enforced) => {
    expect(enforcingProvider(email, [provider]) !== null).toBe(enforced);
  });

  it.each([
    ['no provider', [], true],
    ['enforced, enabled, verified', [p({ enforced: true })], true],
    ['enforced, not verified', [p({ enforced: true, verified: false })], false],
  ])('canSignIn: %s', (_name, providers, can) => expect(canSignIn(u('ada@acme.com'), providers)).toBe(can));
});

describe('providerChangeRefusal', () => {
  const users = [admin('boss@acme.com'), u('ada@acme.com'), admin('ops@other.com')];
  const cases: Array<[string, SsoRuleProvider | null, SsoRuleProvider, SsoRuleProvider[], SsoRuleUser[], string | null]> = [
    ['create a pending claim, disabled', null, p({ enabled: false, domainProven: false }), [], users, null],
    ['create a pending claim enabled', null, p({ domainProven: false }), [], users, 'AUTH_7042'],
    ['enable a pending domain', p({ enabled: false, domainProven: false }), p({ domainProven: false }), [], users, 'AUTH_7042'],
    ['enforce a pending domain', p({ enabled: false, domainProven: false }), p({ enforced: true, domainProven: false }), [], users, 'AUTH_7028'],
    ['a pending domain may change its brand while off', p({ enabled: false, domainProven: false }), p({ enabled: false, domainProven: false }), [], users, null],
    ['create disabled with no users on the domain', null, p({ domain: 'nobody.com', enabled: false }), [], users, null],
    ['create enabled with no users on the domain', null, p({ domain: 'nobody.com' }), [], users, 'AUTH_7042'],
    ['enable with only a deleted user on the domain', p({ enabled: false }), p(), [], [u('ada@acme.com', { deleted: true })], 'AUTH_7042'],
    ['enable with an invited user on the domain', p({ enabled: false }), p(), [], [u('ada@acme.com', { status: 'INVITED' })], null],
    ['an already enabled provider is not re-checked for users', p(), p({ brand: 'x' } as Partial<SsoRuleProvider>), [], [], null],
    ['enforce a disabled provider', p({ enabled: false }), p({ enabled: false, enforced: true }), [], users, 'AUTH_7028'],
    ['disable an enforced provider', p({ enforced: true }), p({ enabled: false, enforced: true }), [], users, 'AUTH_7028'],
    ['enforce an unverified provider', p({ verified: false }), p({ enforced: true, verified: false }), [], users, 'AUTH_7028'],
    ['enforce a verified provider', p(), p({ enforced: true }), [], users, null],
    ['stop enforcing', p({ enforced: true }), p(), [], users, null],
    ['disable and stop enforcing together', p({ enforced: true }), p({ enabled: false }), [], users, null],
    [
      'no admin could sign in: the only admin is on another enforced domain whose provider is unverified',
      p(), p({ enforced: true }), [p({ id: 'p2', domain: 'other.com', enforced: true, verified: false })],
      [admin('ops@other.com'), u('ada@acme.com')], 'AUTH_7028',
    ],
    [
      'suspended admins do not count, an active one who can sign in does',
      p(), p({ enforced: true }), [], [admin('boss@acme.com'), admin('x@other.com', { status: 'SUSPENDED' })], null,
    ],
  ];
  it.each(cases)('%s', (_name, before, after, others, people, code) => {
    expect(providerChangeRefusal(before, after, others, people)?.code ?? null).toBe(code);
  });

  it('says what to do in words', () => {
    expect(providerChangeRefusal(null, p({ domain: 'nobody.com' }), [], users)?.message).toBe(
      'No one in this business has an email at nobody.com, so single sign-on cannot be enabled for it.',
    );
    expect(providerChangeRefusal(p({ enabled: false, domainProven: false }), p({ domainProven: false }), [], users)?.message).toBe(
      'Prove that your business owns acme.com before enabling single sign-on: add the TXT record shown for it at your DNS host, then choose Verify.',
    );
    expect(providerChangeRefusal(p({ enforced: true }), p({ enabled: false, enforced: true }), [], users)?.message).toBe(
      'Stop enforcing single sign-on before disabling this provider.',
    );
  });
});

describe('removalRefusal', () => {
  it.each([
    ['nothing', [], null],
    ['not enforced', [p()], null],
    ['one of them enforced', [p(), p({ id: 'p2', domain: 'b.com', enforced: true })], 'AUTH_7021'],
  ])('%s', (_name, providers, code) => expect(removalRefusal(providers)?.code ?? null).toBe(code));
});
