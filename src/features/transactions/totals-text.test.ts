import { describe, expect, it } from 'vitest';
import { resultTotalsText, selectionTotalsText } from './totals-text.ts';

describe('totals text', () => {
  const totals = { count: 1204, sums: [{ currency: 'USD', amount: 1_234_567, count: 1000 }, { currency: 'EUR', amount: 102_000, count: 200 }, { currency: 'JPY', amount: 5000, count: 4 }] };

  it('says the count and each currency as the table formats amounts', () => {
    expect(resultTotalsText(totals, false)).toBe('1,204 transactions · $12,345.67 · €1,020.00 · ¥5,000');
    expect(resultTotalsText({ count: 1, sums: [{ currency: 'USD', amount: -250, count: 1 }] }, false)).toBe('1 transaction · -$2.50');
    expect(resultTotalsText({ count: 0, sums: [] }, false)).toBe('0 transactions');
  });

  it('says when the totals cover only what has been downloaded', () => {
    expect(resultTotalsText(totals, true)).toBe('1,204 transactions downloaded so far · $12,345.67 · €1,020.00 · ¥5,000');
  });

  it('gives the selection its count, and its sums once known', () => {
    expect(selectionTotalsText(3, null)).toBe('3 selected');
    expect(selectionTotalsText(3, { count: 3, sums: [{ currency: 'USD', amount: 12_000, count: 3 }] })).toBe('3 selected · $120.00');
  });
});
