import { describe, expect, it } from 'vitest';
import { formatAmountInput, parseAmountInput } from './money-input.ts';

describe('parseAmountInput', () => {
  it.each([
    ['', 'USD', undefined],
    ['  ', 'USD', undefined],
    ['12', 'USD', 1200],
    ['12.5', 'USD', 1250],
    ['12.50', 'USD', 1250],
    ['$1,200.05', 'USD', 120005],
    ['-3.10', 'USD', -310],
    ['1500', 'JPY', 1500],
    ['1.234', 'KWD', 1234],
  ])('%j %s → %s', (text, currency, minor) => {
    expect(parseAmountInput(text, currency, 'Min amount')).toEqual({ ok: true, minor });
  });

  it.each([['abc'], ['12.345'], ['1e5'], ['12..3'], ['99999999999999999999']])('refuses %j', (text) => {
    expect(parseAmountInput(text, 'USD', 'Min amount')).toEqual({
      ok: false,
      message: 'Min amount must be a valid amount',
    });
  });

  it('refuses fractions in a zero-exponent currency', () => {
    expect(parseAmountInput('10.5', 'JPY', 'Max amount').ok).toBe(false);
  });
});

describe('formatAmountInput', () => {
  it.each([
    [undefined, 'USD', ''],
    [1250, 'USD', '12.50'],
    [5, 'USD', '0.05'],
    [-310, 'USD', '-3.10'],
    [1500, 'JPY', '1500'],
    [1234, 'KWD', '1.234'],
  ])('%s %s → %j', (minor, currency, text) => {
    expect(formatAmountInput(minor, currency)).toBe(text);
  });

  it('round-trips through parse', () => {
    for (const minor of [0, 1, 99, 100, 123456, -42]) {
      expect(parseAmountInput(formatAmountInput(minor, 'USD'), 'USD', 'x')).toEqual({ ok: true, minor });
    }
  });
});
