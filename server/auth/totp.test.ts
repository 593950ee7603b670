import { describe, expect, it } from 'vitest';
import { matchingStep, totpCode, TOTP_PERIOD_SECONDS } from './totp.ts';

// RFC 6238 appendix B secret ("12345678901234567890") in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const step = (ms: number) => Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);

describe('TOTP (RFC 6238, SHA1, 30 s, 6 digits)', () => {
  it.each([
    [59, '287082'],
    [1111111109, '081804'],
    [1234567890, '005924'],
    [2000000000, '279037'],
  ])('matches the RFC test vector at T=%i', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code);
    expect(matchingStep(RFC_SECRET, code, seconds * 1000)).toBe(step(seconds * 1000));
  });

  it('accepts one step of drift either way, and no more', () => {
    const now = 1_700_000_000_000;
    const period = TOTP_PERIOD_SECONDS * 1000;
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, now - period), now)).toBe(step(now) - 1);
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, now + period), now)).toBe(step(now) + 1);
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, now - 2 * period), now)).toBeNull();
    expect(matchingStep(RFC_SECRET, totpCode(RFC_SECRET, now + 2 * period), now)).toBeNull();
  });

  it('refuses a wrong code', () => {
    const now = 1_700_000_000_000;
    const wrong = String((Number(totpCode(RFC_SECRET, now)) + 1) % 1_000_000).padStart(6, '0');
    expect(matchingStep(RFC_SECRET, wrong, now)).toBeNull();
  });
});
