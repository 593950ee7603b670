import { describe, expect, it } from 'vitest';
import { testVendor as vendor } from '../../lib/test-vendor.ts';
import { addressLines, bankText, contactEmail, filterVendors, mergeSummary, placeText } from './vendor-view.ts';
import { rowErrors, uploadOutcome } from './vendor-upload.ts';
import { parseVendorsSearch } from './search-params.ts';


const acme = vendor({ name: 'acme Supply', contacts: [{ id: '40000000-0000-4000-8000-0000000000c1', name: 'Dana Ortiz', email: 'dana@acme.example', phone: null }] });
const brite = vendor({ name: 'Brightline', email: 'billing@brightline.example', bank_account: { last_four: '0045', routing_last_four: '0025', account_type: 'CHECKING', verified_at: '2026-11-20T10:00:00.000Z' } });
const old = vendor({ name: 'Summit', status: 'ARCHIVED' });

describe('filterVendors', () => {
  it.each([
    ['', 'active', ['acme Supply', 'Brightline']],
    ['', 'archived', ['Summit']],
    ['', 'all', ['acme Supply', 'Brightline', 'Summit']],
    ['ORTIZ', 'active', ['acme Supply']],
    ['billing bright', 'active', ['Brightline']],
    ['line acme', 'all', []],
  ] as const)('q %j, status %s', (q, status, names) => {
    expect(filterVendors([old, brite, acme], { q, status }).map((v) => v.name)).toEqual(names);
  });
});

describe('words', () => {
  it('masks the bank account and says when there is none', () => {
    expect(bankText(brite.bank_account)).toBe('•••• 0045');
    expect(bankText(null)).toBe('No bank account');
  });
  it('places and addresses', () => {
    const address = { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
    expect(placeText(address)).toBe('TX, US');
    expect(placeText({ ...address, state: null, country: 'GB' })).toBe('GB');
    expect(placeText(null)).toBe('—');
    expect(addressLines(address)).toEqual(['1 Main St', 'Austin, TX 78701', 'US']);
  });
  it('takes the vendor’s email, else its first contact’s', () => {
    expect(contactEmail(brite)).toBe('billing@brightline.example');
    expect(contactEmail(acme)).toBe('dana@acme.example');
    expect(contactEmail(old)).toBeNull();
  });
  it('names what a merge moves', () => {
    expect(mergeSummary(brite, [acme])).toBe('1 contact and every bill of acme Supply move to Brightline. acme Supply is then removed.');
    expect(mergeSummary(acme, [brite, old])).toBe(
      'Every bill of Brightline and Summit moves to acme Supply. Its empty email and bank account (•••• 0045) are filled from them. Brightline and Summit are then removed.',
    );
    expect(mergeSummary(vendor({ name: 'Harbor Co.', bank_account: brite.bank_account }), [old])).toBe('Every bill of Summit moves to Harbor Co. Summit is then removed.');
  });
});

describe('upload results', () => {
  const results = [
    { row: 1, ok: true },
    { row: 2, ok: false, errors: { state: 'State is required for US vendors.', email: 'email must be a valid email' } },
  ];
  it('lists each refused cell by row and column', () => {
    expect(rowErrors(results)).toEqual([
      { row: 2, column: 'email', message: 'email must be a valid email' },
      { row: 2, column: 'state', message: 'State is required for US vendors.' },
    ]);
  });
  it('says what happened', () => {
    expect(uploadOutcome(0, results)).toBe('1 row has errors, so no vendors were created. Fix it in the file and upload it again.');
    expect(uploadOutcome(2, [{ row: 1, ok: true }, { row: 2, ok: true }])).toBe('2 vendors created.');
  });
});

describe('parseVendorsSearch', () => {
  it('keeps good parameters and drops bad ones', () => {
    expect(parseVendorsSearch({ q: 'acme', status: 'archived', open: 'nope' })).toEqual({ q: 'acme', status: 'archived' });
    expect(parseVendorsSearch({ status: 'active' })).toEqual({});
  });
});
