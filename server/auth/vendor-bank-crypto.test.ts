import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptBankValue, encryptBankValue, parseBankKey } from './vendor-bank-crypto.ts';

describe('vendor bank encryption', () => {
  const key = randomBytes(32);
  const context = 'vendor-1:account_number';

  it('round-trips, and the stored text never contains the number', () => {
    const stored = encryptBankValue(key, '000123456789', context);
    expect(stored).not.toContain('000123456789');
    expect(decryptBankValue(key, stored, context)).toBe('000123456789');
  });

  it('encrypts the same number differently each time (fresh nonce)', () => {
    expect(encryptBankValue(key, '021000021', context)).not.toBe(encryptBankValue(key, '021000021', context));
  });

  it.each([
    ['a changed ciphertext byte', (s: string) => { const p = s.split('.'); const b = Buffer.from(p[3]!, 'base64url'); b[0]! ^= 1; p[3] = b.toString('base64url'); return p.join('.'); }, context, key],
    ['a changed tag', (s: string) => { const p = s.split('.'); const b = Buffer.from(p[2]!, 'base64url'); b[0]! ^= 1; p[2] = b.toString('base64url'); return p.join('.'); }, context, key],
    ['another vendor or field', (s: string) => s, 'vendor-2:account_number', key],
    ['another key', (s: string) => s, context, randomBytes(32)],
    ['not a ciphertext', () => 'plain', context, key],
  ])('refuses %s', (_name, tamper, ctx, k) => {
    const stored = tamper(encryptBankValue(key, '000123456789', context));
    expect(() => decryptBankValue(k, stored, ctx)).toThrow();
  });

  it('takes a 32-byte key as hex or base64, nothing else', () => {
    const raw = randomBytes(32);
    expect(parseBankKey(raw.toString('hex')).equals(raw)).toBe(true);
    expect(parseBankKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(() => parseBankKey('short')).toThrow();
  });
});
