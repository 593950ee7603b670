import { describe, expect, it } from 'vitest';
import { decodeTokenClaims, tokenScopes } from './token.ts';
import { fakeToken } from './testing.ts';

describe('decodeTokenClaims', () => {
  it('reads the scopes and keeps other claims', () => {
    const claims = decodeTokenClaims(fakeToken(['default', 'low-risk'], { exp: 5, ramp_session_id: 's' }));
    expect(claims).toMatchObject({ ramp_access_scopes: ['default', 'low-risk'], exp: 5, ramp_session_id: 's' });
  });

  it('decodes base64url with non-ASCII text and no padding', () => {
    const payload = btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify({ ramp_access_scopes: ['default'], name: 'Zoë ✓?>' }))))
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(decodeTokenClaims(`h.${payload}.s`)).toMatchObject({ name: 'Zoë ✓?>' });
  });

  it.each([null, '', 'abc', 'a.b', 'a.!!!.c', `a.${btoa('not json')}.c`, `a.${btoa('{"ramp_access_scopes":"x"}')}.c`])(
    'returns null (no scopes) for %s',
    (token) => {
      expect(decodeTokenClaims(token)).toBeNull();
      expect(tokenScopes(token)).toEqual([]);
    },
  );
});
