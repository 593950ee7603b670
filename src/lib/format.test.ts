import { describe, expect, it, vi } from 'vitest';
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

describe('warmFormats', () => {
  it('builds each formatter in its own scheduled step, none before its step runs', async () => {
    vi.resetModules();
    const made = { number: 0, date: 0 };
    const { NumberFormat, DateTimeFormat } = Intl;
    // Counting subclasses in place of the runtime's constructors while the fresh module runs.
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args);
        made.number++;
      }
    } as typeof NumberFormat;
    Intl.DateTimeFormat = class extends DateTimeFormat {
      constructor(...args: ConstructorParameters<typeof DateTimeFormat>) {
        super(...args);
        made.date++;
      }
    } as typeof DateTimeFormat;
    try {
      const fresh = await import('./format.ts');
      const steps: (() => void)[] = [];
      fresh.warmFormats(['EUR', 'JPY'], (build) => steps.push(build));
      // Counts, days, short days, local times, and money in each currency asked for.
      expect(steps).toHaveLength(6);
      expect(made).toEqual({ number: 0, date: 0 });
      steps[0]!();
      expect(made).toEqual({ number: 1, date: 0 });
      for (const step of steps.slice(1)) step();
      expect(made).toEqual({ number: 3, date: 3 }); // counts, EUR, JPY; days, short days, local times
      // Built once: formatting afterwards builds nothing more.
      expect(fresh.formatCount(1234)).toBe('1,234');
      expect(fresh.formatMoney(5000, 'JPY')).toBe('¥5,000');
      expect(fresh.formatDay('2026-11-21')).toBe('Nov 21, 2026');
      expect(made).toEqual({ number: 3, date: 3 });
    } finally {
      Intl.NumberFormat = NumberFormat;
      Intl.DateTimeFormat = DateTimeFormat;
    }
  });
});
