import { describe, expect, it } from 'vitest';
import { billSchema, type Bill } from '../../../schema/entities/bill.ts';
import { testVendor as vendor } from '../../lib/test-vendor.ts';
import { applyCredit, billFormErrors, billTotals, billValues, createBillInput, defaultDueDate, editableParts, emptyBillValues, firstErrorField, linesTotal, parseAmount, templateInput, updateBillPatch, withVendorDefaults, type BillField, type BillFormValues, type CreditOffer } from './bill-form.ts';
import { creditErrors, creditOffers, ownCredits } from './bill-form-credits.ts';
import { dueHint, matchVendor, prefillFromInvoice, valuesFromTemplate } from './bill-form-prefill.ts';

const BIZ = '40000000-0000-4000-8000-0000000000b1';
const ID = '0b7e3f36-5c1d-4a53-9d55-7a2f6c1e0a11';
const GL = '5f0c9a0e-7a43-4b1e-9a51-0d7d3c2b1a00';
const DEPT = '5f0c9a0e-7a43-4b1e-9a51-0d7d3c2b1a01';
const TODAY = '2026-11-26';
const CREDIT = '5f0c9a0e-7a43-4b1e-9a51-0d7d3c2b1ac1';
const CREDIT_2 = '5f0c9a0e-7a43-4b1e-9a51-0d7d3c2b1ac2';

const acme = vendor({ name: 'Acme Supply Co.', default_gl_account_id: GL, default_department_id: DEPT });
const acmeLabs = vendor({ name: 'Acme Labs LLC' });
const northwind = vendor({ name: 'Northwind Traders' });
const archived = vendor({ name: 'Globex', status: 'ARCHIVED' });
const VENDORS = [acme, acmeLabs, northwind, archived];

const bill = (over: Partial<Bill> = {}): Bill =>
  billSchema.parse({
    id: ID, vendor_id: acme.id, invoice_number: 'INV-7', invoice_date: '2026-11-01', due_date: '2026-12-01', currency: 'USD', amount: 15_000,
    status: 'DRAFT', created_by: ID, created_at: '2026-11-01T10:00:00.000Z', business_id: BIZ, change_seq: 1, updated_at: '2026-11-01T10:00:00.000Z',
    line_items: [{ id: '0b7e3f36-5c1d-4a53-9d55-000000000001', description: 'Paper', amount: 15_000 }], ...over,
  });

const values = (over: Partial<BillFormValues> = {}): BillFormValues => ({
  ...emptyBillValues('USD', TODAY),
  vendor_id: acme.id,
  invoice_number: ' INV-42 ',
  lines: [{ key: 'a', description: ' Toner ', amount: '1,250.00', gl_account_id: GL, department_id: '' }],
  ...over,
});

describe('defaults', () => {
  it('starts today, due 30 days later, one empty line in the business currency', () => {
    const v = emptyBillValues('EUR', TODAY, 'k');
    expect(v).toMatchObject({ invoice_date: TODAY, due_date: '2026-12-26', currency: 'EUR', vendor_id: '', invoice_file_id: null });
    expect(v.lines).toEqual([{ key: 'k', description: '', amount: '', gl_account_id: '', department_id: '' }]);
  });

  it.each([
    ['2026-01-31', undefined, '2026-03-02'],
    ['2026-12-15', 15, '2026-12-30'],
    ['', undefined, ''],
    ['2026-02-30x', undefined, ''],
  ])('defaultDueDate(%s, %s) = %s', (date, terms, want) => {
    expect(defaultDueDate(date, terms)).toBe(want);
  });
});

describe('amounts and the live total', () => {
  it.each([
    ['1,250.00', 'USD', 125_000],
    ['$12.5', 'USD', 1250],
    ['USD 3', 'USD', 300],
    ['3480', 'JPY', 3480],
    ['12.345', 'USD', null],
    ['abc', 'USD', null],
    ['', 'USD', null],
  ])('parseAmount(%s, %s) = %s', (text, currency, want) => {
    expect(parseAmount(text, currency)).toBe(want);
  });

  it('sums the lines, ignoring blanks and saying when one cannot be read', () => {
    const line = (amount: string) => ({ key: amount, description: '', amount, gl_account_id: '', department_id: '' });
    expect(linesTotal([line('10.00'), line(''), line('2.50')], 'USD')).toEqual({ minor: 1250, complete: true });
    expect(linesTotal([line('10.00'), line('x')], 'USD')).toEqual({ minor: 1000, complete: false });
  });
});

describe('createBillInput', () => {
  it('builds the create command input in minor units with the client id', () => {
    expect(createBillInput(values({ memo: ' Q4 ' }), { id: ID, submit: true })).toEqual({
      ok: true,
      input: {
        id: ID, vendor_id: acme.id, invoice_number: 'INV-42', invoice_date: TODAY, due_date: '2026-12-26', currency: 'USD',
        line_items: [{ description: 'Toner', amount: 125_000, gl_account_id: GL }], memo: 'Q4', submit: true,
      },
    });
  });

  it.each<[string, Partial<BillFormValues>, Record<string, string | RegExp>]>([
    ['no vendor', { vendor_id: '' }, { vendor_id: 'Choose the vendor.' }],
    ['no invoice number', { invoice_number: '  ' }, { invoice_number: 'Enter the invoice number.' }],
    ['due before the invoice date', { due_date: '2026-11-01' }, { due_date: 'The due date cannot be before the invoice date.' }],
    ['no lines', { lines: [] }, { line_items: 'Add at least one line to the bill.' }],
    ['an amount that is not money', { lines: [{ key: 'a', description: '', amount: '12.345', gl_account_id: '', department_id: '' }] }, { 'line_items.0.amount': /^Line 1: amount must be a valid number/ }],
    ['a missing amount', { lines: [{ key: 'a', description: 'x', amount: '', gl_account_id: '', department_id: '' }] }, { 'line_items.0.amount': /^Line 1: amount is required/ }],
    ['a negative line', { lines: [{ key: 'a', description: '', amount: '-5', gl_account_id: '', department_id: '' }] }, { 'line_items.0.amount': /cannot be negative/, amount: /more than zero/ }],
    ['an unknown currency', { currency: 'XYZ' }, { currency: /^Currency / }],
  ])('refuses %s, by field', (_name, over, want) => {
    const result = createBillInput(values(over), { id: ID, submit: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    for (const [key, message] of Object.entries(want)) expect(result.errors[key]).toMatch(message);
  });
});

describe('updateBillPatch', () => {
  it('sends only what changed; the lines are re-sent only when one changed', () => {
    const b = bill();
    expect(updateBillPatch(b, billValues(b), false)).toEqual({ ok: true, patch: null });
    expect(updateBillPatch(b, { ...billValues(b), memo: 'Paid by check' }, false)).toEqual({ ok: true, patch: { memo: 'Paid by check' } });
    const lines = [{ key: 'x', description: 'Paper', amount: '200', gl_account_id: '', department_id: '' }];
    expect(updateBillPatch(b, { ...billValues(b), lines }, false)).toEqual({ ok: true, patch: { line_items: [{ description: 'Paper', amount: 20_000 }] } });
  });

  it('clears a memo with null and submits a draft with submit: true', () => {
    const b = bill({ memo: 'old' });
    expect(updateBillPatch(b, { ...billValues(b), memo: '' }, true)).toEqual({ ok: true, patch: { memo: null, submit: true } });
  });

  it('attaches the invoice file', () => {
    const b = bill();
    expect(updateBillPatch(b, { ...billValues(b), invoice_file_id: GL }, false)).toEqual({ ok: true, patch: { invoice_file_id: GL } });
  });

  it('refuses a change the status does not allow, with the rule\'s message', () => {
    const b = bill({ status: 'APPROVED' });
    const result = updateBillPatch(b, { ...billValues(b), invoice_number: 'INV-8' }, false);
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/approved \(status APPROVED\) and cannot have its vendor/) });
    // The due date may still move on an approved bill.
    expect(updateBillPatch(b, { ...billValues(b), due_date: '2026-12-15' }, false)).toEqual({ ok: true, patch: { due_date: '2026-12-15' } });
  });

  it('checks the patched bill as the server does', () => {
    const b = bill();
    const result = updateBillPatch(b, { ...billValues(b), due_date: '2026-10-01' }, false);
    expect(result).toEqual({ ok: false, errors: { due_date: 'The due date cannot be before the invoice date.' } });
  });
});

describe('editableParts and lines the form cannot edit', () => {
  it.each([
    [null, { payable: true, dates: true, memo: true, submit: true }],
    ['DRAFT', { payable: true, dates: true, memo: true, submit: true }],
    ['REJECTED', { payable: true, dates: true, memo: true, submit: true }],
    ['PENDING_APPROVAL', { payable: false, dates: true, memo: true, submit: false }],
    ['PAID', { payable: false, dates: false, memo: true, submit: false }],
    ['CANCELED', { payable: false, dates: false, memo: false, submit: false }],
  ] as const)('%s', (status, want) => {
    expect(editableParts(status)).toEqual(want);
  });

  it("keeps a line's location and tracking when its amount is edited; a template takes neither", () => {
    const CATEGORY = '0b7e3f36-5c1d-4a53-9d55-0000000000c1';
    const OPTION = '0b7e3f36-5c1d-4a53-9d55-0000000000a1';
    const line = { id: '0b7e3f36-5c1d-4a53-9d55-000000000002', description: 'Rent', amount: 100_00, location_id: GL, tracking: { [CATEGORY]: OPTION } };
    const b = bill({ line_items: [billSchema.shape.line_items.element.parse(line)], amount: 100_00 });
    const values = billValues(b);
    const lines = [{ ...values.lines[0]!, amount: '150.00' }];
    const result = updateBillPatch(b, { ...values, lines }, false);
    expect(result).toEqual({ ok: true, patch: { line_items: [{ description: 'Rent', amount: 150_00, location_id: GL, tracking: { [CATEGORY]: OPTION } }] } });
    const template = templateInput({ ...values, lines }, 'Monthly rent');
    expect(template.ok && template.body.line_items).toEqual([{ description: 'Rent', amount: 150_00 }]);
  });
});

describe('errors', () => {
  it('words server paths with the form\'s labels and orders them as the form shows them', () => {
    const errors = billFormErrors({
      'patch.memo': 'patch.memo is not allowed',
      'line_items.1.gl_account_id': 'This GL account was not found.',
      invoice_date: 'invoice_date must be a valid date',
    });
    expect(errors).toEqual({
      memo: 'Memo is not allowed',
      'line_items.1.gl_account_id': 'This GL account was not found.',
      invoice_date: 'Invoice date must be a valid date',
    });
    expect(firstErrorField(errors)).toBe('invoice_date');
    expect(firstErrorField({ memo: 'x', 'line_items.2.amount': 'y', 'line_items.0.department_id': 'z' })).toBe('line_items.0.department_id');
    expect(firstErrorField({})).toBeNull();
  });
});

describe('vendors', () => {
  it.each([
    ['ACME SUPPLY COMPANY', acme.id],
    ['acme supply co', acme.id],
    ['Northwind Traders — quality since 1990', northwind.id],
    ['Acme', null], // two Acmes: the person chooses
    ['Globex', null], // archived
    ['Initech', null],
    [undefined, null],
  ])('matchVendor(%s)', (name, want) => {
    expect(matchVendor(name, VENDORS)).toBe(want);
  });

  it('fills only the lines\' empty coding with the vendor\'s defaults', () => {
    const lines = [
      { key: 'a', description: '', amount: '', gl_account_id: '', department_id: '' },
      { key: 'b', description: '', amount: '', gl_account_id: ID, department_id: '' },
    ];
    expect(withVendorDefaults(lines, acme).map((l) => [l.gl_account_id, l.department_id])).toEqual([[GL, DEPT], [ID, DEPT]]);
  });
});

describe('prefillFromInvoice', () => {
  const ctx = (edited: BillField[] = []) => ({ edited: new Set(edited), vendors: VENDORS });
  const reading = {
    vendorName: 'ACME SUPPLY CO.', invoiceNumber: '10442', invoiceDate: '2026-11-03', dueDate: '2026-12-03',
    total: { minor: 173_600, currency: 'USD' },
  };

  it('fills an untouched form: vendor (with its coding), number, dates and the total as one line', () => {
    const { values: v, filled, vendorHint } = prefillFromInvoice(emptyBillValues('USD', TODAY, 'k'), reading, ctx());
    expect(filled).toEqual(['vendor', 'invoice number', 'invoice date', 'due date', 'total']);
    expect(vendorHint).toBeNull();
    expect(v).toMatchObject({ vendor_id: acme.id, invoice_number: '10442', invoice_date: '2026-11-03', due_date: '2026-12-03' });
    expect(v.lines).toEqual([{ key: 'k', description: 'Invoice total', amount: '1736.00', gl_account_id: GL, department_id: DEPT }]);
  });

  it('never overwrites what the person typed', () => {
    const typed = { ...values(), invoice_date: '2026-11-20', due_date: '2026-11-27' };
    const { values: v, filled } = prefillFromInvoice(typed, reading, ctx(['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'lines']));
    expect(v).toEqual(typed);
    expect(filled).toEqual([]);
  });

  it('moves an untouched due date with the invoice date read (terms when printed)', () => {
    const { values: v } = prefillFromInvoice(emptyBillValues('USD', TODAY), { invoiceDate: '2026-11-03', termsDays: 15 }, ctx());
    expect(v.due_date).toBe('2026-11-18');
    const { values: w } = prefillFromInvoice(emptyBillValues('USD', TODAY), { invoiceDate: '2026-11-03' }, ctx(['due_date']));
    expect(w.due_date).toBe('2026-12-26');
  });

  it('shows an unknown vendor\'s name as a hint and chooses none', () => {
    const result = prefillFromInvoice(emptyBillValues('USD', TODAY), { vendorName: 'Initech' }, ctx());
    expect(result.values.vendor_id).toBe('');
    expect(result.vendorHint).toBe('Initech');
  });

  it('takes the invoice\'s currency for the total unless the currency was chosen by hand', () => {
    const eur = { total: { minor: 249_900, currency: 'EUR' } };
    expect(prefillFromInvoice(emptyBillValues('USD', TODAY), eur, ctx()).values).toMatchObject({ currency: 'EUR', lines: [{ amount: '2499.00' }] });
    const kept = prefillFromInvoice(emptyBillValues('USD', TODAY), eur, ctx(['currency']));
    expect(kept.values.currency).toBe('USD');
    expect(kept.filled).toEqual([]);
  });
});

describe('dueHint', () => {
  const day = (iso: string) => `<${iso}>`;
  it.each([
    ['2026-11-26', 'Due today · not a bank business day: a payment goes out <2026-11-27>'], // Thanksgiving
    ['2026-11-27', 'Due tomorrow'],
    ['2026-12-08', 'Due in 12 days'],
    ['2026-11-23', '3 days overdue'],
    ['2026-12-26', 'Due in 30 days · not a bank business day: a payment goes out <2026-12-28>'],
    ['', null],
  ])('%s → %s', (due, want) => {
    expect(dueHint(due, TODAY, day)).toBe(want);
  });
});

describe('vendor credits', () => {
  const credit = (over: Partial<CreditOffer['credit']> = {}): CreditOffer['credit'] => ({
    id: CREDIT, vendor_id: acme.id, currency: 'USD', remaining: 5_000, credit_note_number: 'CN-1', credit_date: '2026-11-01', memo: null, ...over,
  });
  const creditLine = { id: '0b7e3f36-5c1d-4a53-9d55-000000000009', description: 'Vendor credit CN-1', amount: -2_000, vendor_credit_id: CREDIT };

  it('offers the vendor’s credits in the bill’s currency with something left, oldest first, not those applied', () => {
    const credits = [
      credit({ id: CREDIT_2, credit_note_number: 'CN-2', credit_date: '2026-11-10' }),
      credit(),
      credit({ id: ID, credit_note_number: 'CN-EUR', currency: 'EUR' }),
      credit({ id: GL, credit_note_number: 'CN-USED', remaining: 0 }),
      credit({ id: DEPT, credit_note_number: 'CN-OTHER', vendor_id: northwind.id }),
    ];
    expect(creditOffers(credits, values()).map((o) => [o.credit.credit_note_number, o.available])).toEqual([['CN-1', 5_000], ['CN-2', 5_000]]);
    const applied = values({ credits: [{ vendor_credit_id: CREDIT, description: 'x', amount: '10.00' }] });
    expect(creditOffers(credits, applied).map((o) => o.credit.credit_note_number)).toEqual(['CN-2']);
    expect(creditOffers(credits, applied, new Map(), { applied: true }).map((o) => o.credit.credit_note_number)).toEqual(['CN-1', 'CN-2']);
  });

  it('counts what the bill being edited already takes of a credit as left for it', () => {
    const b = bill({ amount: 13_000, line_items: [...bill().line_items, billSchema.shape.line_items.element.parse(creditLine)] });
    expect(ownCredits(b)).toEqual(new Map([[CREDIT, 2_000]]));
    expect(creditOffers([credit({ remaining: 0 })], billValues(b), ownCredits(b), { applied: true })).toEqual([{ credit: credit({ remaining: 0 }), available: 2_000 }]);
  });

  it('applies all of a credit the bill can take, never the whole bill, and nothing without lines', () => {
    const offer = { credit: credit(), available: 5_000 };
    expect(applyCredit(values(), offer)).toEqual({ credit: { vendor_credit_id: CREDIT, description: 'Vendor credit CN-1', amount: '50.00' }, capped: false });
    // A $30 bill keeps a cent to pay: the server refuses a bill credits bring to zero.
    const small = values({ lines: [{ key: 'a', description: 'Toner', amount: '30', gl_account_id: '', department_id: '' }] });
    expect(applyCredit(small, offer)).toEqual({ credit: { vendor_credit_id: CREDIT, description: 'Vendor credit CN-1', amount: '29.99' }, capped: true });
    expect(applyCredit(values({ lines: [{ key: 'a', description: '', amount: '', gl_account_id: '', department_id: '' }] }), offer)).toBeNull();
    expect(applyCredit(values({ lines: [{ key: 'a', description: '', amount: 'x', gl_account_id: '', department_id: '' }] }), offer)).toBeNull();
  });

  it('sends a credit as a negative credit line after the lines, and the total nets it', () => {
    const v = values({ credits: [{ vendor_credit_id: CREDIT, description: ' Vendor credit CN-1 ', amount: '50.00' }] });
    expect(billTotals(v)).toEqual({ lines: 125_000, credits: 5_000, total: 120_000, complete: true });
    const built = createBillInput(v, { id: ID, submit: false });
    expect(built).toMatchObject({ ok: true, input: { line_items: [
      { description: 'Toner', amount: 125_000, gl_account_id: GL },
      { description: 'Vendor credit CN-1', amount: -5_000, vendor_credit_id: CREDIT },
    ] } });
  });

  it('refuses more than remains of a credit, in the server’s words, and a credit that empties the bill', () => {
    const offers = [{ credit: credit(), available: 5_000 }];
    const v = values({ credits: [{ vendor_credit_id: CREDIT, description: 'Vendor credit CN-1', amount: '60' }] });
    expect(creditErrors(v, offers)).toEqual({ 'line_items.1.amount': 'Only $50.00 of credit CN-1 remains.' });
    expect(creditErrors(values({ credits: [{ vendor_credit_id: CREDIT, description: 'c', amount: '0' }] }), offers))
      .toEqual({ 'line_items.1.amount': 'Enter what the credit takes off the bill, more than zero.' });
    expect(creditErrors(values({ credits: [{ vendor_credit_id: CREDIT, description: 'c', amount: '50' }] }), offers)).toEqual({});
    const whole = values({ credits: [{ vendor_credit_id: CREDIT, description: 'c', amount: '1250' }] });
    expect(createBillInput(whole, { id: ID, submit: false })).toMatchObject({ ok: false, errors: { amount: 'The bill must total more than zero after credits.' } });
  });

  it('reads an edited bill’s credit line back into the form and sends nothing when unchanged', () => {
    const b = bill({ amount: 13_000, line_items: [...bill().line_items, billSchema.shape.line_items.element.parse(creditLine)] });
    const v = billValues(b);
    expect(v.lines.map((l) => l.description)).toEqual(['Paper']);
    expect(v.credits).toEqual([{ vendor_credit_id: CREDIT, description: 'Vendor credit CN-1', amount: '20.00' }]);
    expect(updateBillPatch(b, v, false)).toEqual({ ok: true, patch: null });
    expect(updateBillPatch(b, { ...v, credits: [] }, false)).toEqual({ ok: true, patch: { line_items: [{ description: 'Paper', amount: 15_000 }] } });
  });
});

describe('bill templates', () => {
  it('starts a new bill from a template: vendor, currency, lines with the vendor’s coding, memo; credits dropped', () => {
    let k = 0;
    const t = { vendor_id: acme.id, currency: 'EUR', line_items: [{ description: 'Cleaning', amount: 40_000 }, { description: 'Supplies', amount: 2_550, gl_account_id: ID }], memo: 'Monthly' };
    const start = values({ invoice_number: 'INV-9', credits: [{ vendor_credit_id: CREDIT, description: 'c', amount: '1' }] });
    const v = valuesFromTemplate(start, t, { nextKey: () => `t-${++k}`, vendors: VENDORS });
    expect(v).toMatchObject({ vendor_id: acme.id, currency: 'EUR', memo: 'Monthly', invoice_number: 'INV-9', credits: [] });
    expect(v.lines).toEqual([
      { key: 't-1', description: 'Cleaning', amount: '400.00', gl_account_id: GL, department_id: DEPT },
      { key: 't-2', description: 'Supplies', amount: '25.50', gl_account_id: ID, department_id: DEPT },
    ]);
  });

  it('saves the form as a template without its credits, checked like the server', () => {
    const v = values({ memo: ' Q4 ', credits: [{ vendor_credit_id: CREDIT, description: 'c', amount: '1' }] });
    expect(templateInput(v, ' Toner ')).toEqual({
      ok: true, body: { name: 'Toner', vendor_id: acme.id, currency: 'USD', line_items: [{ description: 'Toner', amount: 125_000, gl_account_id: GL }], memo: 'Q4' },
    });
    expect(templateInput(v, '  ')).toMatchObject({ ok: false, errors: { name: 'Name the template.' } });
    expect(templateInput(values({ vendor_id: '' }), 'x')).toMatchObject({ ok: false, errors: { vendor_id: 'Choose the vendor.' } });
    const negative = values({ lines: [{ key: 'a', description: '', amount: '-5', gl_account_id: '', department_id: '' }] });
    expect(templateInput(negative, 'x')).toMatchObject({ ok: false, errors: { 'line_items.0.amount': expect.stringMatching(/cannot be negative/) } });
  });
});
