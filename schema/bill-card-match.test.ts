import { describe, expect, it } from 'vitest';
import {
  chargeDayOffset, matchBillsToCharges, paidByCardRefusal, paidByCardWindow, scoreBillCharge,
  type CardMatchBill, type CardMatchCharge,
} from './bill-card-match.ts';

const bill = (o: Partial<CardMatchBill> = {}): CardMatchBill => ({
  id: 'b1', vendor_name: 'Acme Supply Co.', amount: 120_000, currency: 'USD', invoice_date: '2026-11-02', ...o,
});
const charge = (o: Partial<CardMatchCharge> = {}): CardMatchCharge => ({
  id: 't1', merchant_name: 'ACME SUPPLY 0042', amount: 120_000, currency: 'USD', occurred_at: '2026-11-05T18:20:00Z', state: 'CLEARED', ...o,
});

describe('the pay-by-card window', () => {
  it('runs from 3 days before the invoice date to 30 after (UTC days)', () => {
    expect(paidByCardWindow('2026-11-02')).toEqual({ from: '2026-10-30', to: '2026-12-02' });
    expect(chargeDayOffset('2026-11-02', '2026-11-01T23:59:59Z')).toBe(-1);
    expect(chargeDayOffset('2026-11-02', '2026-12-02T00:00:00Z')).toBe(30);
  });

  it.each([
    ['4 days before', '2026-10-29T12:00:00Z', false],
    ['3 days before', '2026-10-30T12:00:00Z', true],
    ['on the day', '2026-11-02T00:00:00Z', true],
    ['30 days after', '2026-12-02T23:59:00Z', true],
    ['31 days after', '2026-12-03T00:00:00Z', false],
  ])('%s → %s', (_label, occurred_at, matches) => {
    expect(scoreBillCharge(bill(), charge({ occurred_at })) !== null).toBe(matches);
  });
});

describe('scoreBillCharge', () => {
  it.each([
    ['another currency', { currency: 'EUR' }],
    ['another amount (one cent off)', { amount: 120_001 }],
    ['a declined charge', { state: 'DECLINED' as const }],
    ['a reversed charge', { state: 'REVERSED' as const }],
    ['a merchant unlike the vendor', { merchant_name: 'Uber' }],
  ])('refuses %s', (_label, o) => {
    expect(scoreBillCharge(bill(), charge(o))).toBeNull();
  });

  it('takes a pending charge, and says why in words', () => {
    const m = scoreBillCharge(bill(), charge({ state: 'PENDING' }));
    expect(m).toMatchObject({ bill_id: 'b1', transaction_id: 't1', days: 3, merchant: 1 });
    expect(m!.reasons).toEqual([
      'Same amount: $1,200.00',
      'Charged 3 days after the invoice date',
      'Merchant “ACME SUPPLY 0042” is the vendor “Acme Supply Co.”',
    ]);
  });

  it('scores the invoice day and the same merchant highest, and a day before above nine days after (a day before counts as ~8 after)', () => {
    const on = scoreBillCharge(bill(), charge({ occurred_at: '2026-11-02T09:00:00Z' }))!;
    const before = scoreBillCharge(bill(), charge({ occurred_at: '2026-11-01T09:00:00Z' }))!;
    const nine = scoreBillCharge(bill(), charge({ occurred_at: '2026-11-11T09:00:00Z' }))!;
    const seven = scoreBillCharge(bill(), charge({ occurred_at: '2026-11-09T09:00:00Z' }))!;
    const similar = scoreBillCharge(bill({ vendor_name: 'Pacific Office Supply' }), charge({ merchant_name: 'PACIFIC OFFICE SUP', occurred_at: '2026-11-02T09:00:00Z' }))!;
    expect(on.score).toBe(1);
    expect(before.score).toBeGreaterThan(nine.score);
    expect(before.score).toBeLessThan(seven.score);
    expect(before.reasons[1]).toBe('Charged 1 day before the invoice date');
    expect(similar.score).toBeLessThan(on.score);
    expect(similar.reasons[2]).toBe('Merchant “PACIFIC OFFICE SUP” looks like the vendor “Pacific Office Supply”');
  });
});

describe('paidByCardRefusal', () => {
  it('names the currency, the amounts or the state', () => {
    expect(paidByCardRefusal(bill(), charge())).toBeNull();
    expect(paidByCardRefusal(bill(), charge({ currency: 'EUR' }))).toBe('This card charge is in EUR and the bill in USD: it cannot have paid it.');
    expect(paidByCardRefusal(bill(), charge({ amount: 99_00 }))).toContain('$99.00 and the bill $1,200.00');
    expect(paidByCardRefusal(bill(), charge({ state: 'DECLINED' }))).toContain('declined');
  });
});

describe('matchBillsToCharges', () => {
  it('pairs one charge with one bill: two equal invoices of one vendor get different charges', () => {
    const bills = [bill({ id: 'b1', invoice_date: '2026-11-02' }), bill({ id: 'b2', invoice_date: '2026-11-20' })];
    const charges = [charge({ id: 't1', occurred_at: '2026-11-03T10:00:00Z' }), charge({ id: 't2', occurred_at: '2026-11-21T10:00:00Z' })];
    const out = matchBillsToCharges(bills, charges);
    expect(out.map((m) => [m.bill_id, m.transaction_id]).sort()).toEqual([['b1', 't1'], ['b2', 't2']]);
  });

  it('gives a lone charge to the bill it fits best, and none to the other', () => {
    const bills = [bill({ id: 'far', invoice_date: '2026-10-20' }), bill({ id: 'near', invoice_date: '2026-11-04' })];
    const out = matchBillsToCharges(bills, [charge({ id: 't1', occurred_at: '2026-11-05T10:00:00Z' })]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ bill_id: 'near', transaction_id: 't1' });
  });

  it('gives a bill its best charge only, best pairs first', () => {
    const bills = [bill({ id: 'b1' }), bill({ id: 'b2', amount: 5_000, vendor_name: 'Figma, Inc.' })];
    const charges = [
      charge({ id: 'late', occurred_at: '2026-11-25T10:00:00Z' }),
      charge({ id: 'soon', occurred_at: '2026-11-02T10:00:00Z' }),
      charge({ id: 'figma', amount: 5_000, merchant_name: 'FIGMA.COM', occurred_at: '2026-11-10T10:00:00Z' }),
      charge({ id: 'other', amount: 7_000 }),
    ];
    const out = matchBillsToCharges(bills, charges);
    expect(out.map((m) => m.transaction_id)).toEqual(['soon', 'figma']);
    expect(out[0]!.score).toBeGreaterThanOrEqual(out[1]!.score);
  });

  it('answers nothing for nothing', () => {
    expect(matchBillsToCharges([], [charge()])).toEqual([]);
    expect(matchBillsToCharges([bill()], [])).toEqual([]);
  });
});
