import { describe, expect, it } from 'vitest';
import { signIdToken, verifyIdToken, type NewTokenClaims } from './tokens.ts';

const key = () => crypto.getRandomValues(new Uint8Array(32));
const claims: NewTokenClaims = {
  sub: '7d0b0f5e-2f51-4d0c-9a39-3a0c0f3e1a11',
  ramp_user_uuid: null,
  ramp_access_scopes: ['default'],
  ramp_mfa_required: false,
  ramp_mfa_authed: false,
  ramp_session_id: '0b1d5c43-9d55-4b8e-8b7e-5e2b9a3c7d22',
  sign_in_provider: 'password',
  business_id: null,
};
const T0 = 1_800_000_000;

// verifyIdToken remembers tokens it verified (issue 33); each case checks the second, remembered
// answer against what verifying afresh says.
describe('verifyIdToken', () => {
  it('verifies a token, and again from memory, until exactly its expiry', async () => {
    const k = key();
    const token = await signIdToken(k, claims, T0, 60);
    const first = await verifyIdToken(k, token, T0);
    expect(first).toMatchObject({ ...claims, iat: T0, exp: T0 + 60 });
    expect(await verifyIdToken(k, token, T0 + 59)).toEqual(first);
    expect(await verifyIdToken(k, token, T0 + 60)).toBeNull();
    expect(await verifyIdToken(k, token, T0 + 10)).toEqual(first);
  });

  it('refuses a remembered token under another key, and an altered one', async () => {
    const k = key();
    const token = await signIdToken(k, claims, T0);
    expect(await verifyIdToken(k, token, T0)).not.toBeNull();
    expect(await verifyIdToken(key(), token, T0)).toBeNull();
    const [head, body, sig] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), ramp_access_scopes: ['default', 'admin'] })).toString('base64url');
    expect(await verifyIdToken(k, `${head}.${other}.${sig}`, T0)).toBeNull();
    expect(await verifyIdToken(k, `${token}x`, T0)).toBeNull();
  });

  it('never remembers a refusal: a token expired at first sight stays refused', async () => {
    const k = key();
    const token = await signIdToken(k, claims, T0, 60);
    expect(await verifyIdToken(k, token, T0 + 61)).toBeNull();
    expect(await verifyIdToken(k, token, T0 + 62)).toBeNull();
    expect(await verifyIdToken(k, 'not.a.token', T0)).toBeNull();
  });
});
