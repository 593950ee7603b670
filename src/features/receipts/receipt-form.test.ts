import { describe, expect, it } from 'vitest';
import type { InboxReceipt } from '../../../workers/api.ts';
import {
  claimLine, claimOf, claimsByReceipt, currencyChoices, fieldsFromForm, formValuesOf, isMatched, matchStatusText, ocrFields, outOfPocketHref,
} from './receipt-form.ts';

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

describe('receipts read by OCR and receipts used in claims (issue 25)', () => {
  it('an OCR reading becomes the worker fields marked ocr; nothing read, nothing stored', () => {
    expect(ocrFields({ amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: ' Blue Bottle ' })).toEqual({
      amount: { minor: 625, currency: 'USD' }, date: '2026-11-20', merchant: 'Blue Bottle', source: 'ocr',
    });
    expect(ocrFields({ date: '2026-11-20' })).toEqual({ date: '2026-11-20', source: 'ocr' });
    expect(ocrFields({ merchant: '  ' })).toBeNull();
  });
  const claim = (id: string, status: string, receipt_ids: string[]) =>
    ({ id, merchant: 'Blue Bottle Coffee', amount: 625, currency: 'USD', transaction_date: '2026-11-20', status, receipt_ids });
  it('a receipt a claim names (by client or server id) is matched and says which claim; a canceled claim uses none', () => {
    const by = claimsByReceipt([claim('c1', 'SUBMITTED', ['local-1']), claim('c2', 'CANCELED', ['local-2']), claim('c3', 'DRAFT', ['srv-3'])]);
    const r = (id: string, local_id: string | null, server_id: string | null) => ({ id, local_id, server_id, attached_to: null });
    expect(claimOf(r('local-1', 'local-1', null), by)?.id).toBe('c1');
    expect(claimOf(r('local-3', 'local-3', 'srv-3'), by)?.id).toBe('c3');
    expect(claimOf(r('local-2', 'local-2', null), by)).toBeNull();
    expect(isMatched(r('local-1', 'local-1', null), claimOf(r('local-1', 'local-1', null), by))).toBe(true);
    expect(isMatched(r('local-2', 'local-2', null), null)).toBe(false);
    expect(claimLine(claim('c1', 'SUBMITTED', []))).toBe('Used in claim: Blue Bottle Coffee · $6.25 · Nov 20, 2026');
  });
});
