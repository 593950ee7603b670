import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './calls.ts';
import { buildPath } from './define-call.ts';

describe('call catalogue', () => {
  it('has unique ids and unique method+path pairs', () => {
    expect(new Set(CATALOGUE.map((c) => c.id)).size).toBe(CATALOGUE.length);
    expect(new Set(CATALOGUE.map((c) => `${c.method} ${c.path}`)).size).toBe(CATALOGUE.length);
  });
  it.each(CATALOGUE.map((c) => [c.id, c] as const))('%s is well formed', (_id, call) => {
    expect(call.path).toMatch(/^\/v1\/(auth|public)\//);
    expect(call.path.startsWith('/v1/public/')).toBe(call.auth.kind === 'public');
    expect(call.idempotent).toBe((call.method === 'POST' || call.method === 'PATCH') && !call.readOnly);
    if (call.readOnly) expect(call.method).toBe('POST');
    const placeholders = [...call.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
    if (placeholders.length) {
      expect(call.params, 'a path with placeholders declares a params schema').not.toBeNull();
    }
    if (call.method === 'GET') expect(call.body).toBeNull();
  });
  it('fills path placeholders from params and refuses missing ones', () => {
    expect(buildPath('/v1/auth/transactions/:transaction_canonical_uuid', { transaction_canonical_uuid: 'a b' })).toBe(
      '/v1/auth/transactions/a%20b',
    );
    expect(() => buildPath('/v1/auth/transactions/:transaction_canonical_uuid', {})).toThrow(/transaction_canonical_uuid/);
  });
});
