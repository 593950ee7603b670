import { describe, expect, it } from 'vitest';
import {
  allowedRails, amountInWords, chooseRail, defaultRail, numberInWords, railArrival, railCheck, railFee, type RailVendor,
} from './payment-rails.ts';

const US = { line1: '1 Main St', city: 'Denver', state: 'CO', postal_code: '80202', country: 'US' };
const verified = { verified_at: '2026-11-01T00:00:00.000Z' };
const vendor = (over: Partial<RailVendor> = {}): RailVendor => ({ name: 'Acme', bank_account: null, address: null, payee_approval: null, ...over });

describe('payment rails', () => {
  it.each([
    ['bank and address', vendor({ bank_account: verified, address: US }), 'USD', ['ACH', 'CHECK', 'WIRE'], 'ACH'],
    ['bank only', vendor({ bank_account: verified }), 'USD', ['ACH', 'WIRE'], 'ACH'],
    ['address only', vendor({ address: US }), 'USD', ['CHECK'], 'CHECK'],
    ['unverified bank and address: ACH refused as before', vendor({ bank_account: { verified_at: null }, address: US }), 'USD', ['CHECK'], 'ACH'],
    ['foreign address only', vendor({ address: { ...US, country: 'GB', state: null } }), 'USD', [], 'ACH'],
    ['nothing', vendor(), 'USD', [], 'ACH'],
    ['euros', vendor({ bank_account: verified, address: US }), 'EUR', [], 'ACH'],
  ] as const)('%s', (_name, v, currency, allowed, chosen) => {
    expect(allowedRails(v, currency)).toEqual(allowed);
    expect(defaultRail(v, currency)).toBe(chosen);
  });

  it('names the field to fix and the vendor', () => {
    expect(railCheck(vendor(), 'USD', 'CHECK')).toMatchObject({ ok: false, code: 'BILL_PAY_7101', field: 'vendor.address', message: expect.stringContaining('Acme has no mailing address') });
    expect(railCheck(vendor({ address: US }), 'USD', 'WIRE')).toMatchObject({ ok: false, field: 'vendor.bank_account' });
    expect(railCheck(vendor({ address: US }), 'CAD', 'CHECK')).toMatchObject({ ok: false, field: 'rail', message: expect.stringContaining('CAD') });
    expect(chooseRail(vendor({ address: US }), 'USD')).toEqual({ ok: true, rail: 'CHECK' });
    expect(chooseRail(vendor({ address: US }), 'USD', 'WIRE')).toMatchObject({ ok: false });
  });

  it('holds every rail while payee details wait for approval', () => {
    const held = vendor({ bank_account: verified, address: US, payee_approval: { status: 'PENDING', change: 'BANK_ACCOUNT' } });
    for (const rail of ['ACH', 'CHECK', 'WIRE'] as const) expect(railCheck(held, 'USD', rail)).toMatchObject({ ok: false, code: 'BILL_PAY_7102' });
  });

  it('arrives ACH in 2, a check in 5–7 and a wire the same bank business day', () => {
    // Friday 2026-11-20; Thanksgiving 2026-11-26 is no bank day.
    expect(railArrival('ACH', '2026-11-20')).toEqual({ earliest: '2026-11-24', latest: '2026-11-24' });
    expect(railArrival('CHECK', '2026-11-20')).toEqual({ earliest: '2026-11-30', latest: '2026-12-02' });
    expect(railArrival('WIRE', '2026-11-20')).toEqual({ earliest: '2026-11-20', latest: '2026-11-20' });
    expect(railArrival('WIRE', '2026-11-21')).toEqual({ earliest: '2026-11-23', latest: '2026-11-23' });
  });

  it('charges a fee on wires only', () => {
    expect([railFee('WIRE', 'USD'), railFee('ACH', 'USD'), railFee('CHECK', 'USD')]).toEqual([1500, 0, 0]);
  });

  it.each([
    [0, 'zero'], [7, 'seven'], [13, 'thirteen'], [40, 'forty'], [42, 'forty-two'], [100, 'one hundred'], [101, 'one hundred one'],
    [1000, 'one thousand'], [1234, 'one thousand two hundred thirty-four'], [1_000_001, 'one million one'],
    [20_000_019, 'twenty million nineteen'], [999_999_999, 'nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine'],
  ])('%i in words', (n, words) => expect(numberInWords(n)).toBe(words));

  it('writes a check amount as banks read it', () => {
    expect(amountInWords(123_456)).toBe('One thousand two hundred thirty-four and 56/100 dollars');
    expect(amountInWords(5)).toBe('Zero and 05/100 dollars');
    expect(amountInWords(100_000_00)).toBe('One hundred thousand and 00/100 dollars');
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(1.5)).toThrow(RangeError);
  });
});
