import { describe, expect, it } from 'vitest';
import type { LinkedBankAccount } from '../../../schema/api/calls-banking.ts';
import { attemptsText, debitAmounts, editPatch, emptyBankLink, linkBody, parseCents, refusalText, routingCheck, serverFieldErrors, withoutFieldErrors } from './bank-link-form.ts';

const ID = '00000000-0000-4000-8000-0000000000b1';
const account: LinkedBankAccount = {
  id: ID, uuid: ID, name: 'Operating', bank_name: 'First Bank', account_type: 'CHECKING', routing_number: '121000358',
  account_number_masked: '••••6789', currency: 'USD', entity_id: null, status: 'VERIFIED', verified_at: '2026-11-01T00:00:00.000Z',
  attempts_left: null, created_at: '2026-10-01T00:00:00.000Z',
};

describe('routingCheck (ABA checksum as typed)', () => {
  it('stays quiet while short, then checks the nine digits', () => {
    expect(routingCheck('')).toEqual({ state: 'empty' });
    expect(routingCheck('1210')).toMatchObject({ state: 'typing', message: '4 of 9 digits.' });
    expect(routingCheck('121 000 358')).toMatchObject({ state: 'valid' });
    expect(routingCheck('121000359')).toMatchObject({ state: 'invalid', message: expect.stringContaining('not a valid ABA') });
    expect(routingCheck('1210003580')).toMatchObject({ state: 'invalid' });
    expect(routingCheck('12a')).toMatchObject({ state: 'invalid' });
    // Well-known valid routing numbers.
    for (const r of ['011000015', '021000021', '026009593', '111000025']) expect(routingCheck(r).state).toBe('valid');
  });
});

describe('linkBody', () => {
  it('builds the contract’s body from typed values', () => {
    const r = linkBody({ ...emptyBankLink(), name: ' Operating ', bank_name: 'Chase', routing_number: '021-000-021', account_number: '0001234567', entity_id: ID }, 'USD');
    expect(r).toEqual({ ok: true, body: { name: 'Operating', bank_name: 'Chase', account_type: 'CHECKING', routing_number: '021000021', account_number: '0001234567', currency: 'USD', entity_id: ID } });
  });
  it('names every field that is wrong', () => {
    const r = linkBody({ ...emptyBankLink(), routing_number: '021000022', account_number: '12' }, 'USD');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual(['account_number', 'name', 'routing_number']);
  });
});

describe('editPatch', () => {
  it('sends only what changed; new numbers reset a verified account', () => {
    expect(editPatch(account, { ...emptyBankLink(), name: 'Operating', bank_name: 'First Bank' })).toEqual({ ok: true, patch: {}, resetsVerification: false });
    expect(editPatch(account, { ...emptyBankLink(), name: 'Main', bank_name: 'First Bank', routing_number: '021000021', account_number: '98765' }))
      .toEqual({ ok: true, patch: { name: 'Main', routing_number: '021000021', account_number: '98765' }, resetsVerification: true });
  });
  it('asks for both numbers together', () => {
    const r = editPatch(account, { ...emptyBankLink(), name: 'Operating', bank_name: 'First Bank', account_number: '98765' });
    expect(r).toMatchObject({ ok: false, errors: { routing_number: expect.any(String) } });
  });
});

describe('micro-deposits', () => {
  it('reads cents typed several ways', () => {
    expect(parseCents('32')).toBe(32);
    expect(parseCents('0.07')).toBe(7);
    expect(parseCents('$.45')).toBe(45);
    expect(parseCents('0')).toBeNull();
    expect(parseCents('1.00')).toBeNull();
    expect(parseCents('abc')).toBeNull();
    expect(debitAmounts('12', '0.34')).toEqual({ ok: true, amounts: [12, 34] });
    expect(debitAmounts('', '100')).toMatchObject({ ok: false, errors: { first: expect.any(String), second: expect.any(String) } });
  });
  it('says how many tries are left and what a lockout means', () => {
    expect(attemptsText(2)).toBe('2 tries left.');
    expect(attemptsText(1)).toContain('locks verification');
    expect(attemptsText(0)).toContain('locked');
  });
});

describe('refusals', () => {
  it('explains BANKING_7004 and puts BANKING_7001 on the routing number', () => {
    expect(refusalText({ error_code: 'BANKING_7004', message: 'Used.' })).toContain('automation policy');
    expect(serverFieldErrors({ error_code: 'BANKING_7001', message: 'Bad routing.' })).toEqual({ routing_number: 'Bad routing.' });
  });
});

describe('withoutFieldErrors', () => {
  it('typing in a field takes back the error the last save put on it, and only that one', () => {
    const saved = { routing_number: 'This is not a valid ABA routing number.', name: 'Name the account (e.g. “Operating”).' };
    expect(withoutFieldErrors(saved, ['routing_number'])).toEqual({ name: saved.name });
    expect(withoutFieldErrors(saved, ['bank_name'])).toBe(saved);
    expect(withoutFieldErrors({ first: 'Enter the deposit in cents', second: 'Enter the deposit in cents' }, ['second'])).toEqual({ first: 'Enter the deposit in cents' });
  });
});
