import { describe, expect, it } from 'vitest';
import type { RecurringBillTemplate } from '../../../../schema/entities/recurring-bill.ts';
import {
  emptyRecurringValues, firstBillPreview, frequencyText, ordinal, recurringInput, recurringPatch, recurringValues, type RecurringFormValues,
} from './recurring.ts';

const VENDOR = '40000000-0000-4000-8000-0000000000a1';
const TODAY = '2026-11-26';

const values = (over: Partial<RecurringFormValues> = {}): RecurringFormValues => ({
  ...emptyRecurringValues('USD', TODAY),
  vendor_id: VENDOR,
  lines: [{ key: 'a', description: ' Office rent ', amount: '2,500.00', gl_account_id: '', department_id: '' }],
  start_date: '2026-12-01',
  invoice_number_pattern: 'RENT-{YYYY}-{MM}',
  ...over,
});

describe('schedule words', () => {
  it.each([[1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [11, '11th'], [12, '12th'], [13, '13th'], [21, '21st'], [22, '22nd'], [31, '31st']])('ordinal(%i) = %s', (n, want) => {
    expect(ordinal(n)).toBe(want);
  });

  it.each([
    [{ interval: 'MONTHLY', day_of_month: 31, day_of_week: null, start_date: '2026-01-31' }, 'Monthly on the 31st (the last day in shorter months)'],
    [{ interval: 'MONTHLY', day_of_month: null, day_of_week: null, start_date: '2026-12-01' }, 'Monthly on the 1st'],
    [{ interval: 'QUARTERLY', day_of_month: 15, day_of_week: null, start_date: '2026-01-01' }, 'Quarterly on the 15th'],
    [{ interval: 'YEARLY', day_of_month: null, day_of_week: null, start_date: '2026-03-15' }, 'Yearly on March 15'],
    // 2026-11-26 is a Thursday: the start date's weekday when none is set.
    [{ interval: 'WEEKLY', day_of_month: null, day_of_week: null, start_date: TODAY }, 'Weekly on Thursdays'],
    [{ interval: 'WEEKLY', day_of_month: null, day_of_week: 1, start_date: TODAY }, 'Weekly on Mondays'],
  ] as const)('%o → %s', (t, want) => {
    expect(frequencyText(t)).toBe(want);
  });
});

describe('recurringInput', () => {
  it('builds the create body in minor units with the schedule', () => {
    expect(recurringInput(values({ memo: ' Lease ', day_of_month: '1', max_occurrences: '12', days_until_due: '10' }))).toEqual({
      ok: true,
      body: {
        vendor_id: VENDOR, currency: 'USD', line_items: [{ description: 'Office rent', amount: 250_000 }], memo: 'Lease', interval: 'MONTHLY',
        day_of_month: 1, start_date: '2026-12-01', max_occurrences: 12, days_until_due: 10, invoice_number_pattern: 'RENT-{YYYY}-{MM}',
        submit_for_approval: false, status: 'ACTIVE',
      },
    });
  });

  it('sends the weekday only for a weekly schedule, the day of the month only for the others', () => {
    const weekly = recurringInput(values({ interval: 'WEEKLY', day_of_week: '5', day_of_month: '3', invoice_number_pattern: 'CLEAN-{N}' }));
    expect(weekly).toMatchObject({ ok: true, body: { interval: 'WEEKLY', day_of_week: 5 } });
    expect(weekly.ok && 'day_of_month' in weekly.body).toBe(false);
  });

  it.each<[string, Partial<RecurringFormValues>, Record<string, string | RegExp>]>([
    ['no vendor', { vendor_id: '' }, { vendor_id: 'Choose the vendor.' }],
    ['no start date', { start_date: '' }, { start_date: 'Choose the day the first bill is due to be made.' }],
    ['an end before the start', { end_date: '2026-11-01' }, { end_date: 'The end date cannot be before the start date.' }],
    ['a pattern that repeats a number', { interval: 'WEEKLY', invoice_number_pattern: 'RENT-{YYYY}-{MM}' }, { invoice_number_pattern: /same invoice number/ }],
    ['a negative line', { lines: [{ key: 'a', description: 'x', amount: '-5', gl_account_id: '', department_id: '' }] }, { 'line_items.0.amount': /cannot be negative/ }],
    ['days until due out of range', { days_until_due: '400' }, { days_until_due: 'Enter a whole number of days from 0 to 365.' }],
    ['a bill count of zero', { max_occurrences: '0' }, { max_occurrences: /from 1 to 1000/ }],
  ])('refuses %s, by field', (_name, over, want) => {
    const result = recurringInput(values(over));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const [key, message] of Object.entries(want)) expect(result.errors[key]).toMatch(message);
  });

  it('previews the first bill: its date, invoice number and due date', () => {
    expect(firstBillPreview(values({ day_of_month: '15', days_until_due: '10' }))).toEqual({ date: '2026-12-15', invoice_number: 'RENT-2026-12', due_date: '2026-12-25' });
    expect(firstBillPreview(values({ start_date: '' }))).toBeNull();
    expect(firstBillPreview(values({ end_date: '2026-11-01' }))).toBeNull();
  });
});

describe('editing a recurring bill', () => {
  const stored = (over: Partial<RecurringBillTemplate> = {}): RecurringBillTemplate => ({
    id: '40000000-0000-4000-8000-0000000000b1', business_id: '40000000-0000-4000-8000-0000000000c1', vendor_id: VENDOR, currency: 'USD',
    line_items: [{ description: 'Office rent', amount: 250_000, gl_account_id: null, department_id: null }], amount: 250_000,
    memo: 'Suite 4', entity_id: null, interval: 'MONTHLY', day_of_month: 1, day_of_week: null, start_date: '2026-12-01',
    end_date: '2027-11-30', max_occurrences: 12, invoice_number_pattern: 'RENT-{YYYY}-{MM}', days_until_due: 15,
    submit_for_approval: true, status: 'ACTIVE', generated_count: 0, last_period_start: null, next_period_start: '2026-12-01',
    last_error: null, created_by: VENDOR, created_at: '2026-11-26T00:00:00.000Z', updated_at: '2026-11-26T00:00:00.000Z',
    ...over,
  } as RecurringBillTemplate);

  it('fills the form from the stored bill and sends it back unchanged', () => {
    const v = recurringValues(stored());
    expect(v).toMatchObject({ memo: 'Suite 4', day_of_month: '1', day_of_week: '', end_date: '2027-11-30', max_occurrences: '12', days_until_due: '15' });
    expect(v.lines.map((l) => [l.description, l.amount])).toEqual([['Office rent', '2500.00']]);
    const built = recurringInput(v);
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(recurringPatch(built.body)).toMatchObject({
      line_items: [{ description: 'Office rent', amount: 250_000 }], memo: 'Suite 4', day_of_month: 1, day_of_week: null,
      end_date: '2027-11-30', max_occurrences: 12, days_until_due: 15, submit_for_approval: true,
    });
  });

  it('never sends a status: editing a paused recurring bill leaves it paused', () => {
    const built = recurringInput(recurringValues(stored({ status: 'PAUSED' })));
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(recurringPatch(built.body)).not.toHaveProperty('status');
  });

  it('sends a cleared end, limit, memo and day as null, so the server clears them rather than keeping them', () => {
    const built = recurringInput({ ...recurringValues(stored()), end_date: '', max_occurrences: '', memo: '', day_of_month: '' });
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(recurringPatch(built.body)).toMatchObject({ end_date: null, max_occurrences: null, memo: null, day_of_month: null, day_of_week: null });
  });
});
