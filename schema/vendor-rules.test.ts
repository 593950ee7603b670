import { describe, expect, it } from 'vitest';
import {
  checkMerge, checkVendorAddress, isValidAccountNumber, isValidRoutingNumber, maskBankAccount, mergedFields, repeatedNameRows,
  vendorPaymentCheck,
} from './vendor-rules.ts';
import { vendorFromRow, vendorsFromRows } from './vendor-upload.ts';

const US = { country: 'US', state: 'CA' };

describe('checkVendorAddress (PAYEE_1007)', () => {
  it.each([
    ['no address', null, { ok: true }],
    ['a US address with a state', US, { ok: true }],
    ['a US address without a state', { ...US, state: null }, { ok: false, code: 'PAYEE_1007' }],
    ['a US address with a blank state', { ...US, state: '  ' }, { ok: false, code: 'PAYEE_1007' }],
    ['a US state spelled out', { ...US, state: 'California' }, { ok: false, code: 'REQUEST_7001' }],
    ['a territory', { ...US, state: 'PR' }, { ok: true }],
    ['a foreign address without a state', { country: 'GB', state: null }, { ok: true }],
    ['a foreign region as free text', { country: 'CA', state: 'Ontario' }, { ok: true }],
  ])('%s', (_name, address, expected) => {
    expect(checkVendorAddress(address)).toMatchObject(expected);
  });
});

describe('bank numbers', () => {
  it.each([
    ['021000021', true], ['011000015', true], ['121000358', true],
    ['021000022', false], ['02100002', false], ['0210000210', false], ['02100002a', false], ['', false],
  ])('routing %s valid: %s', (routing, valid) => {
    expect(isValidRoutingNumber(routing)).toBe(valid);
  });

  it.each([['1234', true], ['1'.repeat(17), true], ['123', false], ['1'.repeat(18), false], ['12 34', false]])('account %s valid: %s', (n, valid) => {
    expect(isValidAccountNumber(n)).toBe(valid);
  });

  it('masks both numbers to their last four digits', () => {
    expect(maskBankAccount({ routing_number: '021000021', account_number: '000123456789', account_type: 'SAVINGS' }))
      .toEqual({ last_four: '6789', routing_last_four: '0021', account_type: 'SAVINGS' });
  });
});

describe('merges', () => {
  const active = { status: 'ACTIVE' as const };
  it.each([
    ['distinct payees into an active survivor', 's', ['a', 'b'], active, { ok: true }],
    ['the survivor among the merged', 's', ['a', 's'], active, { ok: false, field: 'merged_payee_ids' }],
    ['a payee twice', 's', ['a', 'a'], active, { ok: false, field: 'merged_payee_ids' }],
    ['an archived survivor', 's', ['a'], { status: 'ARCHIVED' as const }, { ok: false, field: 'survivor_payee_id' }],
  ])('%s', (_name, survivor, merged, row, expected) => {
    expect(checkMerge(survivor, merged, row)).toMatchObject(expected);
  });

  it('fills only the survivor\'s empty details, from the first merged payee that has each', () => {
    const none = { email: null, phone: null, address: null, default_gl_account_id: null, default_department_id: null };
    const survivor = { ...none, email: 'keep@x.test' };
    const first = { ...none, email: 'lose@x.test', phone: '+1 555' };
    const second = { ...none, phone: '+2 555', default_department_id: 'dep' };
    expect(mergedFields(survivor, [first, second])).toEqual({ ...none, email: 'keep@x.test', phone: '+1 555', default_department_id: 'dep' });
  });
});

describe('bulk-upload rows', () => {
  it('numbers the rows repeating an earlier name (trimmed, any case)', () => {
    expect([...repeatedNameRows(['Acme', 'Beta', ' ACME ', 'acme'])]).toEqual([[3, 1], [4, 1]]);
  });

  it.each([
    ['a name only', { name: ' Acme ' }, { ok: true, body: { name: 'Acme', email: null, address: null, contacts: [] } }],
    ['blank cells as absent', { name: 'Acme', email: '', phone: '  ' }, { ok: true, body: { email: null, phone: null } }],
    ['a US address, state and country upper-cased', { name: 'A', address_line1: '1 St', city: 'Reno', state: 'nv', postal_code: '89501', country: 'us' },
      { ok: true, body: { address: { line1: '1 St', line2: null, city: 'Reno', state: 'NV', postal_code: '89501', country: 'US' } } }],
    ['a US address without a state', { name: 'A', address_line1: '1 St', city: 'Reno', postal_code: '89501', country: 'US' },
      { ok: false, errors: { state: 'State is required for US vendors.' } }],
    ['no name', { email: 'a@x.test' }, { ok: false, errors: { name: 'name is required' } }],
    ['half an address, named by its columns', { name: 'A', city: 'Paris' },
      { ok: false, errors: { address_line1: expect.stringContaining('address_line1'), postal_code: expect.any(String), country: expect.any(String) } }],
  ])('%s', (_name, row, expected) => {
    expect(vendorFromRow(row)).toMatchObject(expected);
  });

  it('refuses a repeated name on the later row only', () => {
    const results = vendorsFromRows([{ name: 'Acme' }, { name: 'acme' }, { name: '' }, { name: '' }]);
    expect(results.map((r) => (r.ok ? 'ok' : Object.keys(r.errors).join()))).toEqual(['ok', 'name', 'name', 'name']);
    expect(results[1]).toEqual({ ok: false, errors: { name: 'name repeats row 1' } });
  });
});

describe('vendorPaymentCheck with a payee hold (issue 28, payee policy)', () => {
  const bank = { verified_at: '2026-11-01T10:00:00.000Z' };
  it.each([
    ['no hold: payable', null, { ok: true }],
    ['a new vendor waiting', { status: 'PENDING', change: 'NEW_VENDOR' } as const, /Acme is a new vendor and is waiting for payee approval/],
    ['a new account refused', { status: 'REJECTED', change: 'BANK_ACCOUNT' } as const, /Acme’s bank account changed and the payee approval was rejected/],
  ])('%s', (_name, hold, expected) => {
    const check = vendorPaymentCheck({ name: 'Acme', bank_account: bank, payee_approval: hold }, 'USD');
    if (expected instanceof RegExp) expect(check).toMatchObject({ ok: false, reason: 'PAYEE_APPROVAL', message: expect.stringMatching(expected) });
    else expect(check).toEqual(expected);
  });

  it('a missing bank account is said first: it is what to fix', () => {
    expect(vendorPaymentCheck({ name: 'Acme', bank_account: null, payee_approval: { status: 'PENDING', change: 'NEW_VENDOR' } }, 'USD'))
      .toMatchObject({ reason: 'NO_BANK_ACCOUNT' });
  });
});
