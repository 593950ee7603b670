import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  currencyExponent, formatMoney, knownCurrencySchema, moneyOf, moneySchema, moneyValueSchema, nonNegativeMoneySchema, positiveMoneySchema,
  toMinorUnits,
} from './money.ts';

describe('money in integer minor units', () => {
  it.each([
    ['12.34', 'USD', 1234],
    ['12', 'USD', 1200],
    ['12.3', 'USD', 1230],
    ['-5.01', 'EUR', -501],
    ['1,234.50', 'USD', 123450],
    ['1500', 'JPY', 1500],
    ['1.5', 'JPY', null],
    ['1.234', 'KWD', 1234],
    ['1.234', 'USD', null],
    ['abc', 'USD', null],
    ['', 'USD', null],
  ])('%s %s → %s', (input, currency, expected) => {
    expect(toMinorUnits(input, currency)).toBe(expected);
  });
  it('knows exponents', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
  });
  it('formats', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(-500, 'USD')).toBe('-$5.00');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
  });
});

describe('the money schemas, defined once', () => {
  // The objects each module wrote out before they shared these: the wire (JSON Schema, what is accepted) must not change.
  const before = {
    signed: z.object({ amount: z.number().int(), currency: knownCurrencySchema }),
    positive: z.object({ amount: z.number().int().positive(), currency: knownCurrencySchema }),
    nonNegative: z.object({ amount: z.number().int().nonnegative(), currency: knownCurrencySchema }),
    value: z.object({ amount: z.number().int(), currency: z.string().length(3) }),
    capped: z.object({ amount: z.number().int().positive().max(1_000_000_000), currency: knownCurrencySchema }),
  };
  const now = {
    signed: moneySchema, positive: positiveMoneySchema, nonNegative: nonNegativeMoneySchema, value: moneyValueSchema,
    capped: moneyOf(z.number().int().positive().max(1_000_000_000)),
  };
  it.each(Object.keys(before) as (keyof typeof before)[])('%s has the same JSON Schema as before', (k) => {
    expect(z.toJSONSchema(now[k], { io: 'input', unrepresentable: 'any' })).toEqual(z.toJSONSchema(before[k], { io: 'input', unrepresentable: 'any' }));
  });
  it.each([
    [{ amount: 1, currency: 'USD' }, [true, true, true, true]],
    [{ amount: 0, currency: 'USD' }, [true, false, true, true]],
    [{ amount: -5, currency: 'USD' }, [true, false, false, true]],
    [{ amount: 10.5, currency: 'USD' }, [false, false, false, false]],
    [{ amount: 5, currency: 'XYZ' }, [false, false, false, true]],
  ])('%o: signed, positive, non-negative, answered', (value, expected) => {
    expect([moneySchema, positiveMoneySchema, nonNegativeMoneySchema, moneyValueSchema].map((s) => s.safeParse(value).success)).toEqual(expected);
  });
});
