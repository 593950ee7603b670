import { describe, expect, it } from 'vitest';
import { DISPLAY_LOCALE, formatCount, formatDay, formatLocalDateTime, formatMoney, formatUtcDateTime } from './format.ts';

describe('display format', () => {
  it('uses one locale for counts, money, days and times (en-US in this test runtime)', () => {
    expect(DISPLAY_LOCALE).toMatch(/^en/);
    expect(formatCount(20149)).toBe('20,149');
    expect(formatMoney(119900, 'USD')).toBe('$1,199.00');
    expect(formatMoney(5000, 'JPY')).toBe('¥5,000');
  });

  it('shows a date-only value and a timestamp on the same UTC day', () => {
    expect(formatDay('2026-11-21')).toBe('Nov 21, 2026');
    expect(formatDay('2026-11-21T00:31:34Z')).toBe('Nov 21, 2026');
    expect(formatDay('2026-11-21T23:59:59Z')).toBe('Nov 21, 2026');
    expect(formatUtcDateTime('2026-11-21T00:31:34Z')).toBe('Nov 21, 2026, 12:31 AM UTC');
  });

  it('formats a local moment with the same date words', () => {
    expect(formatLocalDateTime(new Date(2026, 10, 22, 19, 35))).toBe('Nov 22, 2026, 7:35 PM');
  });
});
