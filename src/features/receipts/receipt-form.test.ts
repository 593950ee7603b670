import { describe, expect, it } from 'vitest';
import type { InboxReceipt } from '../../../workers/api.ts';
import { currencyChoices, fieldsFromForm, formValuesOf, matchStatusText, outOfPocketHref } from './receipt-form.ts';

const TODAY = '2026-11-23';
const txn = { id: 't1', merchant_name: 'Blue Bottle Coffee', amount: 625, currency: 'USD', occurred_at: '2026-11-20T16:00:00.000Z' };

describe('receipt fields form', () => {
  it('turns typed values into the worker fields', () => {
    expect(fieldsFromForm({ amount: '6.25', currency: 'USD', date: '2026-11-20', merchant: ' Blue Bottle ' }, TODAY)).toEqual({
      ok: true, fields: { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'Blue Bottle', source: 'manual' },
    });
    expect(fieldsFromForm({ amount: '$1,200.5', currency: 'USD', date: '', merchant: '' }, TODAY)).toEqual({ ok: true, fields: { amount: { minor: 120050, currency: 'USD' }, source: 'manual' } });
    expect(fieldsFromForm({ amount: '1200', currency: 'JPY', date: '', merchant: '' }, TODAY)).toMatchObject({ fields: { amount: { minor: 1200, currency: 'JPY' } } });
    expect(fieldsFromForm({ amount: '', currency: 'USD', date: '', merchant: '' }, TODAY)).toEqual({ ok: true, fields: { source: 'manual' } });
  });
  it('names the wrong field', () => {
    expect(fieldsFromForm({ amount: 'abc', currency: 'USD', date: '', merchant: '' }, TODAY)).toMatchObject({ ok: false, errors: { amount: expect.stringContaining('total') } });
    expect(fieldsFromForm({ amount: '6.255', currency: 'USD', date: '', merchant: '' }, TODAY)).toMatchObject({ ok: false });
    expect(fieldsFromForm({ amount: '0', currency: 'USD', date: '', merchant: '' }, TODAY)).toMatchObject({ ok: false });
    expect(fieldsFromForm({ amount: '6', currency: 'USD', date: '2026-12-01', merchant: '' }, TODAY)).toEqual({ ok: false, errors: { date: 'The date is in the future.' } });
  });
  it('shows stored fields back, else empty in the business currency', () => {
    expect(formValuesOf({ amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'X', source: 'ocr' }, 'EUR')).toEqual({ amount: '6.25', currency: 'USD', date: '2026-11-20', merchant: 'X' });
    expect(formValuesOf({ amount: { minor: 1200, currency: 'JPY' }, source: 'ocr' }, 'EUR')).toMatchObject({ amount: '1200', currency: 'JPY' });
    expect(formValuesOf(null, 'EUR')).toEqual({ amount: '', currency: 'EUR', date: '', merchant: '' });
    expect(currencyChoices('GBP', 'USD')).toEqual(['GBP', 'USD', 'EUR', 'CAD', 'AUD', 'JPY', 'CHF', 'MXN', 'INR']);
  });
});

describe('match words', () => {
  const base: Pick<InboxReceipt, 'attached_to' | 'match' | 'extracted' | 'suggestions'> = { attached_to: null, match: null, extracted: null, suggestions: [] };
  const fields = { amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', source: 'manual' as const };
  it('says what to do, what matches, and what it is attached to', () => {
    expect(matchStatusText(base)).toBe('Add the amount and date to find its card transaction.');
    expect(matchStatusText({ ...base, extracted: fields })).toBe('No card transaction matches.');
    expect(matchStatusText({ ...base, extracted: fields, suggestions: [{ transaction_id: 't1', score: 1, days: 0, merchant: 1, reasons: ['amount'], transaction: txn }] }))
      .toBe('Matches Blue Bottle Coffee · $6.25 · Nov 20, 2026');
    expect(matchStatusText({ ...base, attached_to: txn, match: { transaction_id: 't1', score: 1, auto: true } })).toBe('Attached automatically to Blue Bottle Coffee · $6.25 · Nov 20, 2026');
    expect(matchStatusText({ ...base, attached_to: txn })).toBe('Attached to Blue Bottle Coffee · $6.25 · Nov 20, 2026');
  });
  it('links a claim with the receipt', () => {
    expect(outOfPocketHref('a b')).toBe('/reimbursements?new=out_of_pocket&receipt=a%20b');
  });
});
