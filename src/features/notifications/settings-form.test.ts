import { describe, expect, it } from 'vitest';
import { shownPreferences, stillUnsaved, thresholdAmountText, thresholdFromForm, thresholdText } from './settings-form.ts';

describe('thresholdFromForm', () => {
  it.each([
    ['5000', 'USD', { ok: true, threshold: { amount: 500_000, currency: 'USD' } }],
    ['1,250.50', 'EUR', { ok: true, threshold: { amount: 125_050, currency: 'EUR' } }],
    ['75000', 'JPY', { ok: true, threshold: { amount: 75_000, currency: 'JPY' } }],
    ['', 'USD', { ok: false, error: 'Enter an amount, or switch it off.' }],
    ['12.345', 'USD', { ok: false, error: 'Enter an amount in USD, like 5000 or 5000.00.' }],
    ['abc', 'USD', { ok: false, error: 'Enter an amount in USD, like 5000 or 5000.00.' }],
    ['0', 'USD', { ok: false, error: 'The amount must be more than zero.' }],
    ['-5', 'USD', { ok: false, error: 'The amount must be more than zero.' }],
  ])('"%s" %s', (amount, currency, answer) => {
    expect(thresholdFromForm(amount, currency)).toEqual(answer);
  });

  it('refuses more than the contract allows', () => {
    const r = thresholdFromForm('10000000.01', 'USD');
    expect(r.ok).toBe(false);
  });

  it('a saved threshold reads back into the form and in words', () => {
    expect(thresholdAmountText({ amount: 500_000, currency: 'USD' })).toBe('5000.00');
    expect(thresholdAmountText(null)).toBe('');
    expect(thresholdText(null)).toMatch(/^Off/);
    expect(thresholdText({ amount: 500_000, currency: 'USD' })).toBe('On: admins are notified of each card transaction of $5,000.00 or more in USD.');
  });
});

describe('email switches kept while offline', () => {
  const saved = { approval_waiting: true, approved: true, rejected: true, missing_items: true, mention: true, comment: true, workflow: true, large_transaction: false };
  it('shows the person’s changes over the server’s answer', () => {
    expect(shownPreferences(saved, { comment: false })).toEqual({ ...saved, comment: false });
  });
  it('a switch put back to what the server holds is no longer a change', () => {
    expect(stillUnsaved(saved, { comment: false, approved: true, large_transaction: true })).toEqual({ comment: false, large_transaction: true });
    expect(stillUnsaved(saved, { comment: true })).toEqual({});
  });
});
