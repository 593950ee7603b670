import { describe, expect, it } from 'vitest';
import type { VendorCredit } from '../../../../schema/entities/vendor-credit.ts';
import { creditInput, creditsByVendor, linesSummary, templateAmount, type CreditFormValues } from './extras-forms.ts';

const ACME = '40000000-0000-4000-8000-0000000000a1';
const ZETA = '40000000-0000-4000-8000-0000000000a2';

const form = (over: Partial<CreditFormValues> = {}): CreditFormValues => ({
  vendor_id: ACME, credit_note_number: ' CN-7 ', credit_date: '2026-11-20', amount: '1,250.50', currency: 'USD', memo: '', ...over,
});

let n = 0;
const credit = (over: Partial<VendorCredit>): VendorCredit => ({
  id: `40000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, business_id: ACME, vendor_id: ACME, currency: 'USD', amount: 5_000, applied: 0,
  remaining: 5_000, credit_note_number: `CN-${n}`, credit_date: '2026-11-01', memo: null, created_by: ACME, created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z', deleted: false, ...over,
});

describe('creditInput', () => {
  it('builds the create body in minor units, the number trimmed', () => {
    expect(creditInput(form({ memo: ' Returned pallets ' }))).toEqual({
      ok: true,
      body: { vendor_id: ACME, currency: 'USD', amount: 125_050, credit_note_number: 'CN-7', credit_date: '2026-11-20', memo: 'Returned pallets' },
    });
  });

  it.each<[string, Partial<CreditFormValues>, Record<string, string>]>([
    ['no vendor', { vendor_id: '' }, { vendor_id: 'Choose the vendor the credit is from.' }],
    ['no number', { credit_note_number: '  ' }, { credit_note_number: 'Enter the credit note’s number, as the vendor printed it.' }],
    ['no date', { credit_date: '' }, { credit_date: 'Choose the credit note’s date.' }],
    ['no amount', { amount: '' }, { amount: 'Enter the credit’s amount, more than zero.' }],
    ['a zero amount', { amount: '0' }, { amount: 'Enter the credit’s amount, more than zero.' }],
    ['an amount that is not money', { amount: '12.345' }, { amount: 'Enter the credit’s amount, more than zero.' }],
  ])('refuses %s, by field', (_name, over, want) => {
    expect(creditInput(form(over))).toEqual({ ok: false, errors: want });
  });
});

describe('creditsByVendor', () => {
  it('groups by vendor name, newest credit first, with what remains per currency', () => {
    const names = (id: string) => (id === ACME ? 'Acme' : 'Zeta');
    const groups = creditsByVendor([
      credit({ vendor_id: ZETA, credit_note_number: 'Z-1' }),
      credit({ credit_note_number: 'A-old', credit_date: '2026-10-01', remaining: 1_000 }),
      credit({ credit_note_number: 'A-new', credit_date: '2026-11-15', remaining: 0, applied: 5_000 }),
      credit({ credit_note_number: 'A-eur', currency: 'EUR', remaining: 700 }),
    ], names);
    expect(groups.map((g) => [g.vendor, g.credits.map((c) => c.credit_note_number), g.remaining])).toEqual([
      ['Acme', ['A-new', 'A-eur', 'A-old'], [{ currency: 'EUR', minor: 700 }, { currency: 'USD', minor: 1_000 }]],
      ['Zeta', ['Z-1'], [{ currency: 'USD', minor: 5_000 }]],
    ]);
  });
});

describe('template words', () => {
  it('names a template by its first line and sums its lines', () => {
    const lines = [{ description: 'Cleaning', amount: 40_000 }, { description: 'Supplies', amount: 2_550 }, { description: 'Windows', amount: 1_000 }];
    expect(linesSummary({ line_items: lines })).toBe('Cleaning and 2 more lines');
    expect(linesSummary({ line_items: lines.slice(0, 2) })).toBe('Cleaning and 1 more line');
    expect(linesSummary({ line_items: [{ description: ' ', amount: 1 }] })).toBe('Untitled line');
    expect(templateAmount({ line_items: lines })).toBe(43_550);
  });
});
