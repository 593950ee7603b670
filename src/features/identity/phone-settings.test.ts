import { describe, expect, it } from 'vitest';
import { normalisePhone, phoneSummary } from './phone-settings.tsx';

describe('phone number setting', () => {
  it('drops what people type between digits, keeping the + of E.164', () => {
    expect(normalisePhone(' +1 (415) 555-0123 ')).toBe('+14155550123');
    expect(normalisePhone('+44 20.7946.0958')).toBe('+442079460958');
  });
  it('says whether the profile number is confirmed', () => {
    expect(phoneSummary({ phone_number: null, confirmed: false, confirmed_at: null, pending: null })).toBe('No phone number on your profile.');
    expect(phoneSummary({ phone_number: '+14155550123', confirmed: false, confirmed_at: null, pending: null })).toBe('+14155550123, not confirmed yet.');
    expect(phoneSummary({ phone_number: '+14155550123', confirmed: true, confirmed_at: '2026-11-30T10:00:00Z', pending: null }))
      .toBe('+14155550123, confirmed on Nov 30, 2026.');
  });
});
