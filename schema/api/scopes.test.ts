import { describe, expect, it } from 'vitest';
import { checkScopes, type CallAuth } from './scopes.ts';

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
});
