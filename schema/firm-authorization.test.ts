import { describe, expect, it } from 'vitest';
import { CATALOGUE } from './api/calls.ts';
import type { Bill, BillPatch } from './entities/bill.ts';
import { ADVISOR_RIGHT_OF_CALL, advisorBillCoding, advisorBillPatchRefusal, advisorRefusal, advisorRightOf } from './firm-authorization.ts';

const byId = new Map(CATALOGUE.map((c) => [c.id, c] as const));
const call = (id: string) => {
  const c = byId.get(id as never);
  if (!c) throw new Error(`${id} is not in the catalogue`);
  return c;
};

describe('the advisor gate (issue 31, design §3)', () => {
  it('names only catalogue calls of the main app', () => {
    for (const id of Object.keys(ADVISOR_RIGHT_OF_CALL)) expect(call(id).surfaces).toContain('BUSINESS');
  });

  it('denies by default: every business write is mapped or refused, so a new call starts closed', () => {
    for (const c of CATALOGUE) {
      if (!c.surfaces.includes('BUSINESS') || c.method === 'GET' || c.readOnly || c.surfaces.length > 1) continue;
      const right = advisorRightOf(c);
      if (c.id in ADVISOR_RIGHT_OF_CALL) expect(right).toBe(ADVISOR_RIGHT_OF_CALL[c.id]);
      else expect([c.id, right]).toEqual([c.id, null]);
    }
  });

  it.each([
    ['transactions.list', ['READ'], null],
    ['transactions.patch', ['READ'], 'Your firm\'s access to this business doesn\'t include coding. Ask the business to grant it.'],
    ['transactions.patch', ['READ', 'CODE'], null],
    ['transactions.bulkCode', ['READ', 'CODE'], null],
    ['bills.update', ['READ'], 'Your firm\'s access to this business doesn\'t include coding. Ask the business to grant it.'],
    ['bills.update', ['READ', 'CODE'], null],
    ['accounting.syncCommit', ['READ', 'CODE'], 'Your firm\'s access to this business doesn\'t include closing the books. Ask the business to grant it.'],
    ['accounting.syncCommit', ['READ', 'CLOSE_BOOKS'], null],
    ['transactions.exportAsFile', ['READ', 'CODE'], 'Your firm\'s access to this business doesn\'t include closing the books. Ask the business to grant it.'],
    ['bills.bulk.payNow', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['bills.create', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['vendors.bankAccount.reveal', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
    ['auth.stepUp', ['READ', 'CODE', 'CLOSE_BOOKS'], 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.'],
  ] as const)('%s with %j', (id, rights, refusal) => {
    expect(advisorRefusal(call(id), rights)).toBe(refusal);
  });
});

describe('an advisor\'s bill patch: coding only', () => {
  const U = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  const line = (o: Partial<Bill['line_items'][number]> = {}): Bill['line_items'][number] => ({
    id: U(90), description: 'Paper', amount: 12_000, gl_account_id: null, department_id: null, location_id: null, tracking: {},
    vendor_credit_id: null, po_line_id: null, quantity: null, unit_price: null, ...o,
  });
  const bill = {
    vendor_id: U(1), invoice_number: 'INV-1', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD', purchase_order_id: null,
    entity_id: null, invoice_file_id: U(2),
    line_items: [line(), line({ id: U(91), description: 'Toner', amount: 3_050, gl_account_id: U(10), po_line_id: U(20), quantity: 1, unit_price: 3_050 })],
  } satisfies Parameters<typeof advisorBillPatchRefusal>[0];
  const sameLines = (over: (i: number) => Partial<NonNullable<BillPatch['line_items']>[number]> = () => ({})) =>
    bill.line_items.map((l, i) => ({
      description: l.description, amount: l.amount, gl_account_id: l.gl_account_id ?? undefined, po_line_id: l.po_line_id,
      quantity: l.quantity, unit_price: l.unit_price, ...over(i),
    }));
  const words = (what: string) =>
    `Your firm's access to this business includes coding this bill (its lines' GL accounts and departments, and its memo), not changing its ${what}. Ask the business to change it.`;

  it.each([
    ['a memo', { memo: 'Q4 supplies' }],
    ['a cleared memo', { memo: null }],
    ['GL accounts and departments of the same lines', { line_items: sameLines((i) => ({ gl_account_id: U(11 + i), department_id: U(30) })) }],
    ['a cleared GL account', { line_items: sameLines(() => ({ gl_account_id: undefined })) }],
    ['other fields repeated as they are', { vendor_id: U(1), invoice_number: 'INV-1', currency: 'USD', purchase_order_id: null, invoice_file_id: U(2), memo: 'x' }],
    ['submit and confirm_duplicate false', { submit: false, confirm_duplicate: false, memo: 'x' }],
  ] as [string, BillPatch][])('allows %s', (_, patch) => {
    expect(advisorBillPatchRefusal(bill, patch)).toBeNull();
  });

  it.each([
    ['the vendor', { vendor_id: U(3) }, 'vendor'],
    ['the invoice number', { invoice_number: 'INV-2' }, 'invoice number'],
    ['a date', { invoice_date: '2026-11-02' }, 'invoice date'],
    ['the currency', { currency: 'EUR' }, 'currency'],
    ['the PO', { purchase_order_id: U(4) }, 'purchase order'],
    ['the entity', { entity_id: U(5) }, 'paying entity'],
    ['the invoice file', { invoice_file_id: null }, 'invoice document'],
    ['a line amount', { line_items: sameLines((i) => (i === 0 ? { amount: 12_001 } : {})) }, 'line amounts'],
    ['a line description', { line_items: sameLines((i) => (i === 1 ? { description: 'Ink' } : {})) }, 'line descriptions'],
    ['a line removed', { line_items: sameLines().slice(1) }, 'lines'],
    ['a line added', { line_items: [...sameLines(), { description: 'Ink', amount: 1 }] }, 'lines'],
    ['lines reordered', { line_items: sameLines().reverse() }, 'line descriptions'],
    ['a credit applied', { line_items: sameLines((i) => (i === 0 ? { vendor_credit_id: U(6) } : {})) }, 'line vendor credits'],
    ['a PO line unlinked', { line_items: sameLines((i) => (i === 1 ? { po_line_id: null } : {})) }, 'line purchase order lines'],
    ['a quantity', { line_items: sameLines((i) => (i === 1 ? { quantity: 2, amount: 6_100 } : {})) }, 'line amounts'],
    ['a submit', { memo: 'x', submit: true }, 'status (submitting it for approval)'],
    ['a duplicate confirmation', { confirm_duplicate: true }, 'duplicate confirmation'],
  ] as [string, BillPatch, string][])('refuses %s', (_, patch, what) => {
    expect(advisorBillPatchRefusal(bill, patch)).toBe(words(what));
  });

  it('the write carries only the coding fields', () => {
    const lines = sameLines(() => ({ gl_account_id: U(12) }));
    expect(advisorBillCoding({ vendor_id: U(1), memo: 'x', line_items: lines, submit: false })).toEqual({ memo: 'x', line_items: lines });
    expect(advisorBillCoding({ invoice_number: 'INV-1' })).toEqual({});
  });
});
