import { describe, expect, it } from 'vitest';
import { checkScopes, isRestrictedToken, type CallAuth, ANY_SURFACE, checkSurface, surfaceClaimSchema, surfaceOf, surfaceSubjectId } from './scopes.ts';

describe('scope gate', () => {
  const scopes = (s: string[]): CallAuth => ({ kind: 'scopes', scopes: s as never });
  it.each([
    [scopes(['default', 'low-risk']), ['default'], { ok: true }],
    [scopes(['default', 'low-risk']), ['low-risk'], { ok: true }],
    [scopes(['default']), ['chrome-extension'], { ok: false, reason: 'forbidden' }],
    [scopes(['sensitive']), ['default'], { ok: false, reason: 'step-up', scope: 'sensitive' }],
    [scopes(['sensitive']), ['default', 'sensitive'], { ok: true }],
    [scopes(['email-otp', 'sensitive']), ['default'], { ok: false, reason: 'step-up', scope: 'sensitive' }],
    [scopes(['email-otp']), [], { ok: false, reason: 'step-up', scope: 'email-otp' }],
    [{ kind: 'public' } as CallAuth, [], { ok: true }],
    [{ kind: 'recent-token', maxAgeSeconds: 300 } as CallAuth, [], { ok: true }],
  ])('%j with %j', (auth, tokenScopes, expected) => {
    expect(checkScopes(auth, tokenScopes)).toEqual(expected);
  });

  it('a scope list with a recent-token allowance admits a recent token without the scopes', () => {
    const auth: CallAuth = { kind: 'scopes', scopes: ['default'], recentTokenMaxAgeSeconds: 300 };
    expect(checkScopes(auth, [], 299)).toEqual({ ok: true });
    expect(checkScopes(auth, [], 301)).toEqual({ ok: false, reason: 'forbidden' });
    expect(checkScopes(auth, [])).toEqual({ ok: false, reason: 'forbidden' });
    expect(checkScopes({ kind: 'scopes', scopes: ['default'] }, [], 1)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('a token with only restricted scopes (low-risk) passes only the calls listing its scope, never the recent-token rule', () => {
    expect(checkScopes({ kind: 'recent-token', maxAgeSeconds: 300 }, ['low-risk'])).toEqual({ ok: false, reason: 'forbidden' });
    const withRecent: CallAuth = { kind: 'scopes', scopes: ['default'], recentTokenMaxAgeSeconds: 300 };
    expect(checkScopes(withRecent, ['low-risk'], 1)).toEqual({ ok: false, reason: 'forbidden' });
    expect(checkScopes({ kind: 'scopes', scopes: ['default', 'low-risk'] }, ['low-risk'], 1)).toEqual({ ok: true });
    // A sign-in still waiting for MFA (no scope) and a full token keep the recent-token rule.
    expect(checkScopes({ kind: 'recent-token', maxAgeSeconds: 300 }, [])).toEqual({ ok: true });
    expect(checkScopes({ kind: 'recent-token', maxAgeSeconds: 300 }, ['default', 'low-risk'])).toEqual({ ok: true });
    expect(isRestrictedToken(['low-risk'])).toBe(true);
    expect(isRestrictedToken(['default', 'low-risk'])).toBe(false);
    expect(isRestrictedToken([])).toBe(false);
  });
});

describe('checkSurface (issue 31)', () => {
  const firm = { kind: 'ADVISOR_CONSOLE', external_firm_id: 'f', external_firm_user_id: 'u' } as const;
  it('a token without a surface claim is a main-app token', () => {
    expect(surfaceOf({})).toEqual({ kind: 'BUSINESS' });
    expect(checkSurface(['BUSINESS'], {})).toBe(true);
    expect(checkSurface(['ADVISOR_CONSOLE'], {})).toBe(false);
  });
  it('admits a token only on the surfaces the call declares', () => {
    expect(checkSurface(['BUSINESS'], { ramp_surface: firm })).toBe(false);
    expect(checkSurface(['ADVISOR_CONSOLE'], { ramp_surface: firm })).toBe(true);
    expect(checkSurface(ANY_SURFACE, { ramp_surface: { kind: 'VENDOR_PORTAL', network_vendor_id: 'v' } })).toBe(true);
    expect(checkSurface(['VENDOR_PORTAL'], { ramp_surface: { kind: 'FINANCING_APPLICATION', financing_application_id: 'a' } })).toBe(false);
  });
  it('names the id each surface acts for', () => {
    expect(surfaceSubjectId({ kind: 'BUSINESS' })).toBeNull();
    expect(surfaceSubjectId(firm)).toBe('u');
    expect(surfaceSubjectId({ kind: 'ADVISOR_CONSOLE_APPLICATION', external_firm_application_id: 'x' })).toBe('x');
  });
  it('a token claim of an unknown surface does not parse', () => {
    expect(surfaceClaimSchema.safeParse({ kind: 'ELSEWHERE' }).success).toBe(false);
    expect(surfaceClaimSchema.safeParse({ kind: 'VENDOR_PORTAL' }).success).toBe(false);
  });
});
