import { describe, expect, it } from 'vitest';
import { vendorSchema, type Vendor } from '../../../schema/entities/vendor.ts';
import { bankBody, createBody, editIsEmpty, editOf, emptyBankValues, emptyVendorValues, serverErrors, valuesFromVendor } from './vendor-form.ts';

const ID = '40000000-0000-4000-8000-000000000001';
const BIZ = '40000000-0000-4000-8000-0000000000b1';
const C1 = '40000000-0000-4000-8000-0000000000c1';

const vendor = (over: Partial<Vendor> = {}): Vendor =>
  vendorSchema.parse({
    id: ID, business_id: BIZ, change_seq: 1, updated_at: '2026-11-20T10:00:00.000Z', name: 'Acme Supply', email: 'ar@acme.example',
    phone: null, address: { line1: '1 Main St', line2: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    default_gl_account_id: null, default_department_id: null, bank_account: null, status: 'ACTIVE',
    contacts: [{ id: C1, name: 'Dana', email: 'dana@acme.example', phone: null }], ...over,
  });

const address = { line1: '1 Main St', city: 'Austin', postal_code: '78701', country: 'US' };

describe('createBody', () => {
  it('builds the create body: trimmed, blanks as null, no address when none was typed', () => {
    expect(createBody({ ...emptyVendorValues(), name: ' Acme ', email: '' })).toEqual({
      ok: true,
      body: { name: 'Acme', email: null, phone: null, address: null, default_gl_account_id: null, default_department_id: null, contacts: [] },
    });
  });

  it('shows PAYEE_1007 on State for a US address without one (the catalogue message)', () => {
    expect(createBody({ ...emptyVendorValues(), name: 'Acme', ...address })).toEqual({ ok: false, errors: { state: 'State is required for US vendors.' } });
  });

  it('accepts the US address with its state (upper-cased), and a non-US one without', () => {
    const us = createBody({ ...emptyVendorValues(), name: 'Acme', ...address, state: 'tx' });
    expect(us.ok && us.body.address).toEqual({ ...address, line2: null, state: 'TX' });
    expect(createBody({ ...emptyVendorValues(), name: 'Acme', ...address, country: 'GB' }).ok).toBe(true);
  });

  it('names missing fields in the form’s words', () => {
    const r = createBody({ ...emptyVendorValues(), city: 'Austin', state: 'TX', contacts: [{ key: 'k', id: null, name: '', email: 'x', phone: '' }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.name).toBe('Name is required.');
    expect(r.errors.line1).toBe('Street address is required.');
    expect(r.errors['contacts.0.name']).toBe('Name is required.');
    expect(r.errors['contacts.0.email']).toMatch(/^Email/);
  });
});

describe('editOf', () => {
  it('sends only what changed, and the contacts added, changed and removed', () => {
    const v = vendor();
    const values = valuesFromVendor(v);
    expect(editIsEmpty((editOf(v, values) as { ok: true; edit: Parameters<typeof editIsEmpty>[0] }).edit)).toBe(true);
    const r = editOf(v, {
      ...values, phone: '+1 512 555 0100', state: '',
      contacts: [{ key: 'n', id: null, name: 'Sam', email: '', phone: '' }],
    });
    expect(r).toEqual({ ok: false, errors: { state: 'State is required for US vendors.' } });
    const ok = editOf(v, { ...values, phone: '+1 512 555 0100', contacts: [{ ...values.contacts[0]!, name: 'Dana Ortiz' }, { key: 'n', id: null, name: 'Sam', email: '', phone: '' }] });
    expect(ok).toEqual({
      ok: true,
      edit: {
        patch: { phone: '+1 512 555 0100' },
        add: [{ name: 'Sam', email: null, phone: null }],
        update: [{ id: C1, patch: { name: 'Dana Ortiz', email: 'dana@acme.example', phone: null } }],
        remove: [],
      },
    });
    const removed = editOf(v, { ...values, contacts: [] });
    expect(removed.ok && removed.edit.remove).toEqual([C1]);
  });
});

describe('serverErrors', () => {
  it('maps body paths to fields and PAYEE_1007 to State', () => {
    expect(serverErrors({ error_code: 'PAYEE_1007', message: 'State is required for US vendors.', errors: { 'address.state': 'State is required for US vendors.' } }))
      .toEqual({ state: 'State is required for US vendors.' });
    expect(serverErrors({ error_code: 'REQUEST_7001', message: 'x', errors: { name: "A vendor named 'Acme' already exists." } }))
      .toEqual({ name: "A vendor named 'Acme' already exists." });
  });
});

describe('bankBody', () => {
  it.each([
    ['121000358', '4401927731', null, null],
    ['121 000 358', '4401-9277-31', null, null],
    ['', '', 'Routing number is required.', 'Account number is required.'],
    ['12100035', '123', 'A routing number is 9 digits.', 'An account number is 4 to 17 digits.'],
    ['121000359', '123456789012345678', 'This is not a valid ABA routing number. Check for a mistyped digit.', 'An account number is 4 to 17 digits.'],
  ])('routing %s, account %s', (routing, account, routingError, accountError) => {
    const r = bankBody({ ...emptyBankValues(), routing_number: routing, account_number: account });
    if (routingError === null && accountError === null) {
      expect(r).toEqual({ ok: true, body: { routing_number: '121000358', account_number: '4401927731', account_type: 'CHECKING' } });
    } else {
      expect(r).toEqual({ ok: false, errors: { routing_number: routingError, account_number: accountError } });
    }
  });
});
