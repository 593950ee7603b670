import { describe, expect, it } from 'vitest';
import type { SwitchingImport, SwitchingVendor } from '../../../schema/api/calls-switching.ts';
import { importSummary, limitWords, vendorRhythm, waitingTotals } from './switching-words.ts';

const vendor = (over: Partial<SwitchingVendor>): SwitchingVendor => ({
  id: 'v', name: 'Figma Inc.', currency: 'USD', charges: 3, months: 2, cadence: 'MONTHLY',
  first_charged_on: '2026-09-12', last_charged_on: '2026-10-12', last_amount: 4500, largest_amount: 4500, total: 13500,
  suggested_limit: { amount: 5000, interval: 'MONTHLY' }, card: null, switched_at: null, ...over,
});

describe('switching words', () => {
  it('says a vendor’s rhythm and span', () => {
    expect(vendorRhythm(vendor({}))).toBe('Monthly · 3 charges, Sep 2026 – Oct 2026');
    expect(vendorRhythm(vendor({ cadence: 'IRREGULAR', first_charged_on: '2026-10-01' }))).toBe('Now and then · 3 charges, Oct 2026');
  });

  it('says what an upload read and what it left out', () => {
    const i = { file_name: 'amex.csv', charges: 6, duplicates: 1, credits: 1, unreadable: 2 } as SwitchingImport;
    expect(importSummary(i)).toBe('6 charges read from amex.csv, 1 already known from an earlier statement, 1 payment or refund left out, 2 rows could not be read.');
    expect(importSummary({ ...i, duplicates: 0, credits: 0, unreadable: 0, charges: 1 })).toBe('1 charge read from amex.csv.');
  });

  it('totals only vendors still to move, per currency, naming each', () => {
    const moved = vendor({ total: 999_00, card: { id: 'c', display_name: 'X', status: 'ACTIVE', last_four: '1234', user_name: 'A' } });
    expect(waitingTotals([vendor({}), vendor({ currency: 'EUR', total: 2000 }), moved, vendor({ total: 500 })])).toEqual(['€20.00 EUR', '$140.00 USD']);
    expect(limitWords(5000, 'USD', 'MONTHLY')).toBe('$50.00 a month');
  });
});
