import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney, toMinorUnits } from './money.ts';

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
