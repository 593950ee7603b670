import { describe, expect, it } from 'vitest';
import {
  BILL_STATUSES, billCreateSchema, billEntity, billPatchSchema, billPaymentSchema, billSchema, compareBills, matchesBillFilter,
  type Bill, type BillStatus,
} from './entities/bill.ts';
import {
  BILL_ACTIONS, BILL_BULK_ACTIONS, BILL_MOVES, BULK_BILL_LIMIT, billPatchActions, billTotal, bulkActionStatuses, checkBillAction,
  checkBillPatch, checkBulkBillAction, validateProvisionalBill, checkBulkBills, createdStatus, findDuplicateInvoices, invoiceNumberKey,
  isDuplicateInvoice, mayManageBills, nextPaymentAttempt, paymentKey, validateBill, type BillAction, type BillBulkAction, type BillFields,
} from './bill-rules.ts';
import { FEATURE_FLAG_DEFAULTS } from './feature-flags.ts';
import type { Actor } from './roles.ts';

const U = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const VENDOR = U(500);

function makeBill(o: Partial<Bill> = {}): Bill {
  return billSchema.parse({
    id: U(100), vendor_id: VENDOR, invoice_number: 'INV-001', invoice_date: '2026-11-02', due_date: '2026-12-02',
    currency: 'USD', amount: 12_500, line_items: [{ id: U(101), description: 'Consulting', amount: 12_500 }],
    status: 'DRAFT', created_by: U(1), created_at: '2026-11-02T10:00:00.000Z',
    business_id: U(900), change_seq: 1, updated_at: '2026-11-02T10:00:00.000Z',
    ...o,
  });
}

const fields = (o: Partial<BillFields> = {}): BillFields => ({
  invoice_number: 'INV-001', invoice_date: '2026-11-02', due_date: '2026-12-02', currency: 'USD',
  line_items: [{ amount: 10_000 }, { amount: 2_500 }], ...o,
});

describe('the bill status machine', () => {
  const EDGES: [BillStatus, BillStatus][] = [
    ['DRAFT', 'PENDING_APPROVAL'], ['DRAFT', 'CANCELED'],
    ['PENDING_APPROVAL', 'APPROVED'], ['PENDING_APPROVAL', 'REJECTED'], ['PENDING_APPROVAL', 'CANCELED'],
    ['APPROVED', 'SCHEDULED'], ['APPROVED', 'PAID'], ['APPROVED', 'CANCELED'],
    ['SCHEDULED', 'PAID'], ['SCHEDULED', 'PAYMENT_FAILED'], ['SCHEDULED', 'CANCELED'],
    ['PAID', 'RECONCILED'], ['PAID', 'APPROVED'],
    ['REJECTED', 'PENDING_APPROVAL'], ['REJECTED', 'CANCELED'],
    ['PAYMENT_FAILED', 'SCHEDULED'], ['PAYMENT_FAILED', 'PAID'], ['PAYMENT_FAILED', 'CANCELED'],
  ];

  it('has exactly the listed moves; CANCELED and RECONCILED are final', () => {
    const moves = BILL_STATUSES.flatMap((from) => BILL_MOVES[from].map((to) => [from, to]));
    expect(moves.sort()).toEqual([...EDGES].sort());
    expect(BILL_MOVES.CANCELED).toEqual([]);
    expect(BILL_MOVES.RECONCILED).toEqual([]);
  });

  const OPEN: BillStatus[] = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'REJECTED', 'PAYMENT_FAILED'];
  const FROM: Record<BillAction, BillStatus[]> = {
    submit: ['DRAFT', 'REJECTED'],
    approve: ['PENDING_APPROVAL'],
    reject: ['PENDING_APPROVAL'],
    cancel: OPEN,
    schedule: ['APPROVED', 'SCHEDULED'],
    payNow: ['APPROVED', 'SCHEDULED'],
    paymentSettled: ['SCHEDULED'],
    paymentFailed: ['SCHEDULED'],
    retryPayment: ['PAYMENT_FAILED'],
    markPaid: ['APPROVED', 'SCHEDULED', 'PAYMENT_FAILED'],
    markReconciled: ['PAID'],
    reversePayment: ['PAID'],
    editPayable: ['DRAFT', 'REJECTED'],
    editDates: OPEN,
    editEntity: ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'PAYMENT_FAILED'],
    editCoding: [...OPEN, 'PAID'],
    editMemo: BILL_STATUSES.filter((s) => s !== 'CANCELED'),
    retryAccountingSync: ['APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED'],
    remindApprovers: ['PENDING_APPROVAL'],
  };

  it.each(Object.entries(FROM))('starts %s only from its statuses', (action, from) => {
    const allowed = BILL_STATUSES.filter((s) => checkBillAction(action as BillAction, s).ok);
    expect(allowed).toEqual(BILL_STATUSES.filter((s) => from.includes(s)));
  });

  it('covers every action in the table', () => {
    expect(Object.keys(BILL_ACTIONS).sort()).toEqual(Object.keys(FROM).sort());
  });

  it('moves each action along an edge of the machine (rescheduling stays SCHEDULED)', () => {
    for (const [name, action] of Object.entries(BILL_ACTIONS)) {
      if (action.to === null) continue;
      for (const from of action.from) {
        if (from === action.to) continue;
        expect(BILL_MOVES[from], `${name} from ${from}`).toContain(action.to);
      }
    }
  });

  it('reaches every edge by some action', () => {
    for (const [from, to] of EDGES) {
      const by = Object.values(BILL_ACTIONS).some((a) => a.to === to && (a.from as readonly BillStatus[]).includes(from));
      expect(by, `${from} → ${to}`).toBe(true);
    }
  });

  it('names the bill’s status when it refuses', () => {
    for (const action of Object.keys(BILL_ACTIONS) as BillAction[]) {
      for (const status of BILL_STATUSES) {
        const check = checkBillAction(action, status);
        if (!check.ok) expect(check.message, `${action} from ${status}`).toContain(`(status ${status})`);
      }
    }
    expect(checkBillAction('reversePayment', 'RECONCILED')).toEqual({
      ok: false, message: 'This bill is reconciled (status RECONCILED) and cannot have its payment reversed (only a paid, not yet reconciled bill can).',
    });
    expect(checkBillAction('cancel', 'PAID')).toEqual({
      ok: false, message: 'This bill is paid (status PAID) and cannot be canceled (only an unpaid bill can be).',
    });
  });

  it('creates a draft, or a bill awaiting approval when submitted at once', () => {
    expect(createdStatus(undefined)).toBe('DRAFT');
    expect(createdStatus(false)).toBe('DRAFT');
    expect(createdStatus(true)).toBe('PENDING_APPROVAL');
  });
});

describe('patches', () => {
  it.each([
    [{ memo: 'x' }, ['editMemo']],
    [{ invoice_file_id: null }, ['editMemo']],
    [{ due_date: '2026-12-31', invoice_date: '2026-11-01' }, ['editDates']],
    [{ entity_id: U(7) }, ['editEntity']],
    [{ currency: 'EUR', memo: null }, ['editPayable', 'editMemo']],
    [{}, []],
  ] as const)('%o needs %o', (patch, actions) => {
    expect(billPatchActions(billPatchSchema.parse(patch))).toEqual(actions);
  });

  it.each([
    [{ memo: 'paid by check' }, 'PAID', true],
    [{ due_date: '2026-12-31' }, 'APPROVED', true],
    [{ line_items: [{ description: 'x', amount: 1 }] }, 'REJECTED', true],
    [{ line_items: [{ description: 'x', amount: 1 }] }, 'PENDING_APPROVAL', false],
    [{ memo: 'm', vendor_id: U(501) }, 'APPROVED', false],
    [{ entity_id: U(7) }, 'SCHEDULED', false],
    [{ memo: 'm' }, 'CANCELED', false],
  ] as const)('%o on a %s bill: allowed %s', (patch, status, ok) => {
    expect(checkBillPatch(billPatchSchema.parse(patch), status).ok).toBe(ok);
  });

  it('refuses with the stricter field’s message', () => {
    const check = checkBillPatch({ memo: 'm', vendor_id: U(501) }, 'APPROVED');
    expect(check.ok || check.message).toContain('cannot have its vendor, invoice number, currency, amount or lines changed');
  });
});

describe('bulk actions', () => {
  const RUNS: Record<BillBulkAction, BillAction> = {
    'due-date': 'editDates', 'invoice-date': 'editDates', entity: 'editEntity', memo: 'editMemo', 'payment-date': 'schedule',
    'tracking-category': 'editCoding', cancel: 'cancel', 'pay-now': 'payNow', amount: 'editPayable', 'mark-bills-as-paid': 'markPaid',
    'mark-bills-as-reconciled': 'markReconciled', 'retry-payment': 'retryPayment', 'retry-accounting-sync': 'retryAccountingSync',
    'remind-next-approvers': 'remindApprovers',
  };

  it('lists §7’s fourteen bulk actions, each running its action', () => {
    expect(Object.keys(BILL_BULK_ACTIONS).sort()).toEqual(Object.keys(RUNS).sort());
    for (const [name, action] of Object.entries(RUNS)) expect(BILL_BULK_ACTIONS[name as BillBulkAction].action, name).toBe(action);
  });

  it('PATCHes the field edits and POSTs the rest, as §7 lists them', () => {
    const patched = Object.entries(BILL_BULK_ACTIONS).filter(([, a]) => a.method === 'PATCH').map(([n]) => n).sort();
    expect(patched).toEqual(['due-date', 'entity', 'invoice-date', 'memo', 'payment-date', 'tracking-category']);
  });

  it.each([
    ['mark-bills-as-paid', ['APPROVED', 'SCHEDULED', 'PAYMENT_FAILED']],
    ['mark-bills-as-reconciled', ['PAID']],
    ['retry-payment', ['PAYMENT_FAILED']],
    ['remind-next-approvers', ['PENDING_APPROVAL']],
    ['payment-date', ['APPROVED', 'SCHEDULED']],
  ] as const)('%s accepts bills in %o', (name, statuses) => {
    expect([...bulkActionStatuses(name)].sort()).toEqual([...statuses].sort());
    for (const s of BILL_STATUSES) expect(checkBulkBillAction(name, s).ok, `${name} ${s}`).toBe((statuses as readonly string[]).includes(s));
  });

  it('takes §3’s flag as its limit', () => {
    expect(BULK_BILL_LIMIT).toBe(50);
    expect(FEATURE_FLAG_DEFAULTS.bulk_bill_creation_limit).toBe(BULK_BILL_LIMIT);
  });

  const ids = (n: number) => Array.from({ length: n }, (_, i) => U(1000 + i));
  it.each([
    [ids(1), undefined, null],
    [ids(50), undefined, null],
    [ids(51), undefined, 'You can act on at most 50 bills at a time; 51 were chosen.'],
    [ids(11), 10, 'You can act on at most 10 bills at a time; 11 were chosen.'],
    [[], undefined, 'Choose at least one bill.'],
    [[U(1), U(2), U(1)], undefined, 'The same bill was chosen twice.'],
  ])('checkBulkBills(%#)', (list, limit, message) => {
    const check = checkBulkBills(list, limit);
    expect(check.ok ? null : check.message).toBe(message);
  });
});

describe('who may manage bills', () => {
  const actor = (o: Partial<Actor>): Actor => ({ id: U(1), role: 'BUSINESS_USER', is_manager: false, user_permissions: [], ...o });
  it.each([
    ['an admin', actor({ role: 'BUSINESS_ADMIN' }), true],
    ['an owner', actor({ role: 'BUSINESS_OWNER' }), true],
    ['a bookkeeper', actor({ role: 'BUSINESS_BOOKKEEPER' }), true],
    ['an AP clerk (AP_ACCESS)', actor({ user_permissions: ['AP_ACCESS'] }), true],
    ['an employee', actor({}), false],
    ['a manager', actor({ is_manager: true }), false],
    ['an auditor', actor({ role: 'AUDITOR' }), false],
    ['an employee with another permission', actor({ user_permissions: ['COPILOT'] }), false],
  ])('%s: %s', (_, who, may) => {
    expect(mayManageBills(who)).toBe(may);
  });
});

describe('validateBill', () => {
  it('accepts a well-formed bill', () => {
    expect(validateBill(fields())).toEqual({});
    expect(validateBill(fields({ amount: 12_500 }))).toEqual({});
  });

  it.each<[string, Partial<BillFields>, Record<string, string>]>([
    ['a blank invoice number', { invoice_number: '   ' }, { invoice_number: 'Enter the invoice number.' }],
    ['a long invoice number', { invoice_number: 'X'.repeat(65) }, { invoice_number: 'The invoice number can be at most 64 characters.' }],
    ['an unknown currency', { currency: 'XYZ' }, { currency: 'Choose a known currency (a three-letter ISO 4217 code such as USD).' }],
    ['a lower-case currency', { currency: 'usd' }, { currency: 'Choose a known currency (a three-letter ISO 4217 code such as USD).' }],
    ['no lines', { line_items: [] }, { line_items: 'Add at least one line to the bill.' }],
    ['a negative ordinary line', { line_items: [{ amount: 10_000 }, { amount: -500 }] },
      { 'line_items.1.amount': 'Line 2: the amount cannot be negative. To take a vendor credit off the bill, apply the credit.' }],
    ['a positive credit line', { line_items: [{ amount: 10_000 }, { amount: 500, vendor_credit_id: U(3) }] },
      { 'line_items.1.amount': 'Line 2: a vendor credit line takes money off the bill, so its amount must be negative.' }],
    ['a fractional amount', { line_items: [{ amount: 10.5 }] }, { 'line_items.0.amount': 'Line 1: enter the amount in whole cents (minor units).' }],
    ['lines that miss the total', { amount: 12_000 }, { amount: 'The lines add up to $125.00, not the bill\'s total of $120.00.' }],
    ['a total in yen', { currency: 'JPY', amount: 100 }, { amount: 'The lines add up to ¥12,500, not the bill\'s total of ¥100.' }],
    ['credits that cover the bill', { line_items: [{ amount: 500 }, { amount: -500, vendor_credit_id: U(3) }] },
      { amount: 'The bill must total more than zero after credits.' }],
    ['a zero bill', { line_items: [{ amount: 0 }] }, { amount: 'The bill must total more than zero after credits.' }],
    ['a due date before the invoice date', { due_date: '2026-11-01' }, { due_date: 'The due date cannot be before the invoice date.' }],
    ['an impossible date', { invoice_date: '2026-02-30' }, { invoice_date: 'Enter the invoice date as a calendar date (YYYY-MM-DD).' }],
  ])('refuses %s', (_, o, errors) => {
    expect(validateBill(fields(o))).toEqual(errors);
  });

  it('accepts a credit line that leaves something to pay, and a due date on the invoice date', () => {
    expect(validateBill(fields({ line_items: [{ amount: 10_000 }, { amount: -2_500, vendor_credit_id: U(3) }], amount: 7_500 }))).toEqual({});
    expect(validateBill(fields({ due_date: '2026-11-02' }))).toEqual({});
    expect(billTotal([{ amount: 10_000 }, { amount: -2_500 }])).toBe(7_500);
  });

  it('reports every problem at once', () => {
    expect(Object.keys(validateBill(fields({ invoice_number: '', currency: 'ZZZ', line_items: [] }))).sort())
      .toEqual(['currency', 'invoice_number', 'line_items']);
  });

  it('runs on a parsed create body and a stored bill alike', () => {
    const body = billCreateSchema.parse({
      vendor_id: VENDOR, invoice_number: '  INV-9 ', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'EUR',
      line_items: [{ description: 'Paper', amount: 4_200, gl_account_id: U(40) }], submit: true,
    });
    expect(body.invoice_number).toBe('INV-9');
    expect(validateBill(body)).toEqual({});
    expect(validateBill(makeBill())).toEqual({});
  });
});

describe('validateProvisionalBill', () => {
  const none = { invoice_date: null, due_date: null, amount: null, currency: null };
  it('checks only the fields an uploaded invoice has so far', () => {
    expect(validateProvisionalBill(none)).toEqual({});
    expect(validateProvisionalBill({ ...none, due_date: '2026-01-01' })).toEqual({});
    expect(validateProvisionalBill({ ...none, invoice_date: '2026-02-01', due_date: '2026-01-01' })).toEqual({
      due_date: 'The due date cannot be before the invoice date.',
    });
    expect(validateProvisionalBill({ ...none, amount: 500 })).toEqual({ currency: 'Give the currency of the amount.' });
    expect(validateProvisionalBill({ ...none, amount: 500, currency: 'USD' })).toEqual({});
  });
});

describe('the bill entity', () => {
  it('fills the defaults of a new bill', () => {
    const bill = makeBill();
    expect(bill).toMatchObject({ payment_date: null, memo: null, entity_id: null, payment_attempt: 0, paid_manually: false, deleted: false });
    expect(bill.line_items[0]).toMatchObject({ gl_account_id: null, tracking: {}, vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null });
  });

  it.each([
    ['a bill without lines', { line_items: [] }],
    ['a zero total', { amount: 0 }],
    ['an unknown status', { status: 'SENT' }],
    ['a non-date due date', { due_date: '2026-12-02T00:00:00Z' }],
  ])('refuses %s', (_, o) => {
    expect(billSchema.safeParse({ ...makeBill(), ...o }).success).toBe(false);
  });

  it('refuses create bodies with a bad currency or unknown vendor id shape', () => {
    const base = { vendor_id: VENDOR, invoice_number: 'A', invoice_date: '2026-11-02', due_date: '2026-11-30', currency: 'USD', line_items: [] };
    expect(billCreateSchema.safeParse(base).success).toBe(true);
    expect(billCreateSchema.safeParse({ ...base, currency: 'XYZ' }).success).toBe(false);
    expect(billCreateSchema.safeParse({ ...base, vendor_id: 'acme' }).success).toBe(false);
  });

  it('parses a payment attempt', () => {
    const p = billPaymentSchema.parse({ id: U(300), bill_id: U(100), amount: 12_500, status: 'PENDING', attempt: 1, created_at: '2026-11-03T00:00:00Z' });
    expect(p.attempt).toBe(1);
    expect(billPaymentSchema.safeParse({ ...p, attempt: 0 }).success).toBe(false);
  });

  it('filters and sorts for the mirror’s queries', () => {
    const a = makeBill({ id: U(1), due_date: '2026-12-10', amount: 300, line_items: [{ id: U(11), description: 'a', amount: 300, gl_account_id: null, department_id: null, location_id: null, tracking: {}, vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null }] });
    const b = makeBill({ id: U(2), due_date: '2026-12-01', status: 'APPROVED', entity_id: U(70) });
    expect([a, b].sort(compareBills('due_date_asc')).map((x) => x.id)).toEqual([U(2), U(1)]);
    expect([b, a].sort(compareBills('due_date_desc')).map((x) => x.id)).toEqual([U(1), U(2)]);
    expect([a, b].sort(compareBills('amount_desc')).map((x) => x.id)).toEqual([U(2), U(1)]);
    expect(matchesBillFilter(a, { statuses: ['APPROVED'] })).toBe(false);
    expect(matchesBillFilter(b, { statuses: ['APPROVED'], entity_ids: [U(70)], vendor_ids: [VENDOR] })).toBe(true);
    expect(matchesBillFilter(a, { entity_ids: [U(70)] })).toBe(false);
    expect(billEntity.query.referencedIds(b)).toEqual([VENDOR, U(70)]);
    expect(billEntity.query.filter.parse({ statuses: 'DRAFT,PAID' }).statuses).toEqual(['DRAFT', 'PAID']);
  });
});

describe('duplicate invoices', () => {
  const existing = [
    makeBill({ id: U(1), invoice_number: 'INV-001', status: 'PAID' }),
    makeBill({ id: U(2), invoice_number: 'inv 002', status: 'REJECTED' }),
    makeBill({ id: U(3), invoice_number: 'INV-003', status: 'CANCELED' }),
    makeBill({ id: U(4), invoice_number: 'INV-004', vendor_id: U(501) }),
    makeBill({ id: U(5), invoice_number: 'INV-005', deleted: true }),
  ];

  it.each([
    ['the same number', 'INV-001', [U(1)]],
    ['another case and spacing', ' inv-0 01 ', [U(1)]],
    ['a rejected bill’s number', 'INV002', [U(2)]],
    ['full-width digits', 'INV-００１', [U(1)]],
    ['a canceled bill’s number', 'INV-003', []],
    ['another vendor’s number', 'INV-004', []],
    ['a deleted bill’s number', 'INV-005', []],
    ['other punctuation and leading zeros', 'inv/1', [U(1)]],
    ['another number', 'INV-010', []],
    ['a blank number', '  ', []],
  ])('%s', (_, number, ids) => {
    const candidate = { vendor_id: VENDOR, invoice_number: number };
    expect(findDuplicateInvoices(candidate, existing).map((b) => b.id)).toEqual(ids);
    expect(isDuplicateInvoice(candidate, existing)).toBe(ids.length > 0);
  });

  it('does not count the bill being edited', () => {
    expect(isDuplicateInvoice({ id: U(1), vendor_id: VENDOR, invoice_number: 'INV-001' }, existing)).toBe(false);
  });

  it('compares by a normalized key', () => {
    expect(invoiceNumberKey(' a\tb\u00a0c ')).toBe('ABC');
    expect(invoiceNumberKey('INV-0042')).toBe(invoiceNumberKey('inv 42'));
    expect(invoiceNumberKey('2024-000')).toBe('20240');
    expect(invoiceNumberKey('2024-001')).not.toBe(invoiceNumberKey('2024001'));
    expect(invoiceNumberKey('007')).toBe('7');
    expect(invoiceNumberKey('A-10')).not.toBe(invoiceNumberKey('A-1'));
    expect(invoiceNumberKey(' — ')).toBe('—');
  });
});

describe('payment keys', () => {
  it('is one key per bill and attempt', () => {
    expect(paymentKey(U(100), 1)).toBe(`bill-payment:${U(100)}:1`);
    expect(paymentKey(U(100), 2)).not.toBe(paymentKey(U(100), 1));
    expect(paymentKey(U(101), 1)).not.toBe(paymentKey(U(100), 1));
  });

  it('numbers attempts from 1', () => {
    expect(() => paymentKey(U(100), 0)).toThrow(RangeError);
    expect(() => paymentKey(U(100), 1.5)).toThrow(RangeError);
    expect(nextPaymentAttempt(makeBill())).toBe(1);
    expect(nextPaymentAttempt(makeBill({ payment_attempt: 2 }))).toBe(3);
  });
});
