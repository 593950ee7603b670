import { describe, expect, it } from 'vitest';
import { resultTotalsText, selectionTotalsText } from './totals-text.ts';

describe('totals text', () => {
  const totals = {
    count: 1210,
    excluded: 6,
    sums: [
      { currency: 'USD', amount: 1_234_567, count: 1000, excluded: 5 },
      { currency: 'EUR', amount: 102_000, count: 200, excluded: 1 },
      { currency: 'JPY', amount: 5000, count: 4, excluded: 0 },
    ],
  };

  it('says each currency’s spend with its own count, which states it includes, and what it left out', () => {
    expect(resultTotalsText(totals, false)).toBe(
      '1,210 transactions · Spend (pending and cleared): $12,345.67 across 1,000 USD · €1,020.00 across 200 EUR · ¥5,000 across 4 JPY · 6 declined or reversed, not in spend',
    );
    expect(resultTotalsText({ count: 1, excluded: 0, sums: [{ currency: 'USD', amount: -250, count: 1, excluded: 0 }] }, false)).toBe(
      '1 transaction · Spend (pending and cleared): -$2.50 across 1 USD',
    );
    expect(resultTotalsText({ count: 0, sums: [] }, false)).toBe('0 transactions');
  });

  it('never sums declined or reversed rows: a result of only those says so and shows no amount', () => {
    expect(resultTotalsText({ count: 2, excluded: 2, sums: [{ currency: 'USD', amount: 0, count: 0, excluded: 2 }] }, false)).toBe(
      '2 transactions · 2 declined or reversed, not in spend',
    );
  });

  it('with the Currency filter set, shows that currency\'s rows and total only (issue 25)', () => {
    expect(resultTotalsText(totals, false, undefined, 'EUR')).toBe(
      '201 EUR transactions · Spend (pending and cleared): €1,020.00 across 200 EUR · 1 declined or reversed, not in spend',
    );
    expect(resultTotalsText(totals, false, undefined, 'JPY')).toBe('4 JPY transactions · Spend (pending and cleared): ¥5,000 across 4 JPY');
    expect(resultTotalsText(totals, false, undefined, 'CHF')).toBe('0 CHF transactions');
    // What the worker answers for a currency-filtered query reads the same.
    expect(resultTotalsText({ count: 201, excluded: 1, sums: [totals.sums[1]!] }, false, undefined, 'EUR')).toBe(resultTotalsText(totals, false, undefined, 'EUR'));
  });

  it('says when the totals cover only what has been downloaded', () => {
    expect(resultTotalsText(totals, true)).toMatch(/^1,210 transactions downloaded so far · Spend/);
  });

  it('gives the selection its count, and its sums once known', () => {
    expect(selectionTotalsText(3, null)).toBe('3 selected');
    expect(selectionTotalsText(3, { count: 3, excluded: 1, sums: [{ currency: 'USD', amount: 12_000, count: 2, excluded: 1 }] })).toBe(
      '3 selected · Spend (pending and cleared): $120.00 across 2 USD · 1 declined or reversed, not in spend',
    );
  });
});
