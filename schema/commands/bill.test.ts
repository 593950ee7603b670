import { describe, expect, it } from 'vitest';
import { billSchema, type Bill, type BillStatus } from '../entities/bill.ts';
import { billTotal } from '../bill-rules.ts';
import { applyBillPatch, billCreate, billDelete, billUpdate, lineIdOf, newBill, syncedBillRefusal } from './bill.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-20T12:00:00.000Z';
const ACTOR = { user_id: id(2), business_id: id(9) };

const createArgs = (over: Record<string, unknown> = {}) => billCreate.args.parse({
  id: id(1), vendor_id: id(3), invoice_number: ' INV 7 ', invoice_date: '2026-11-01', due_date: '2026-11-30', currency: 'USD',
  line_items: [{ description: ' Paper ', amount: 12_000, gl_account_id: id(5) }, { description: 'Toner', amount: 3_050 }], ...over,
});
const created = (over: Record<string, unknown> = {}) => {
  const args = createArgs(over);
  return billCreate.apply(billCreate.blank!(args, { id: args.id, actor: ACTOR, at: AT }), args);
};
const withStatus = (status: BillStatus): Bill => ({ ...created(), status });

describe('bill commands', () => {
  it('create: a valid bill row from the blank, amount = the lines’ sum, a draft; the call carries the client id', () => {
    const args = createArgs();
    expect(billCreate.request(args)).toEqual({ body: args });
    expect(billCreate.entityIds(args)).toEqual([id(1)]);
    const bill = created();
    // What the mirror and the server's answer parse with: the optimistic row has the wire shape.
    expect(billSchema.parse(bill)).toEqual(bill);
    expect(bill).toMatchObject({
      id: id(1), vendor_id: id(3), invoice_number: 'INV 7', amount: 15_050, status: 'DRAFT', submitted_at: null,
      created_by: ACTOR.user_id, business_id: ACTOR.business_id, created_at: AT, memo: null, payment_attempt: 0,
    });
    expect(bill.line_items.map((l) => [l.id, l.description, l.amount, l.gl_account_id])).toEqual([
      [lineIdOf(id(1), 0), 'Paper', 12_000, id(5)], [lineIdOf(id(1), 1), 'Toner', 3_050, null],
    ]);
  });

  it('update: an invoice file stored on this device waits for its upload and goes out under the server’s id', () => {
    const args = billUpdate.args.parse({ bill_id: id(1), patch: { invoice_file_id: id(70), memo: 'x' } });
    expect(billUpdate.after!(args)).toEqual([id(70)]);
    const serverId = (c: string) => (c === id(70) ? id(71) : undefined);
    expect(billUpdate.request(billUpdate.resolve!(args, serverId)).body).toEqual({ invoice_file_id: id(71), memo: 'x' });
    // Already the server's id (uploaded before the save), or no file: sent as is.
    expect(billUpdate.resolve!(args, () => undefined)).toEqual(args);
    const plain = billUpdate.args.parse({ bill_id: id(1), patch: { memo: 'y' } });
    expect(billUpdate.after!(plain)).toEqual([]);
    expect(billUpdate.resolve!(plain, serverId)).toEqual(plain);
  });

  it('create: a credit line keeps the vendor credit it draws on (as the server stores it)', () => {
    const bill = created({ line_items: [{ description: 'Parts', amount: 10_000 }, { description: 'Credit CN-1', amount: -2_500, vendor_credit_id: id(80) }] });
    expect(bill.line_items.map((l) => [l.amount, l.vendor_credit_id])).toEqual([[10_000, null], [-2_500, id(80)]]);
    expect(bill.amount).toBe(7_500);
  });

  it('create with submit is PENDING_APPROVAL, submitted at the write’s moment', () => {
    expect(created({ submit: true })).toMatchObject({ status: 'PENDING_APPROVAL', submitted_at: AT });
  });

  it('update: new lines replace all and the amount follows them; fields the status freezes leave the row as it is', () => {
    const draft = created();
    const args = billUpdate.args.parse({ bill_id: id(1), patch: { memo: 'Nov', line_items: [{ description: 'Credit-free', amount: 900 }] } });
    expect(billUpdate.request(args)).toEqual({ params: { bill_uuid: id(1) }, body: args.patch });
    const next = billUpdate.apply(draft, args);
    expect(next).toMatchObject({ memo: 'Nov', amount: 900 });
    expect(next.amount).toBe(billTotal(next.line_items));
    expect(billSchema.safeParse(next).success).toBe(true);

    // Awaiting approval: the payable part is frozen (the server refuses by name), the memo is not.
    const pending = withStatus('PENDING_APPROVAL');
    expect(applyBillPatch(pending, { line_items: [{ description: 'x', amount: 1 }] })).toBe(pending);
    expect(applyBillPatch(pending, { memo: 'ok' })).toMatchObject({ memo: 'ok', amount: 15_050 });
    // A reconciled bill's dates are closed; a canceled one's memo too.
    expect(applyBillPatch(withStatus('RECONCILED'), { due_date: '2026-12-31' }).due_date).toBe('2026-11-30');
    expect(applyBillPatch(withStatus('CANCELED'), { memo: 'late' }).memo).toBeNull();
  });

  it('update with submit sends a draft, or a fixed rejected bill, for approval as the server does; elsewhere nothing moves', () => {
    const draft = { ...created(), updated_at: '2026-11-21T08:00:00.000Z' };
    expect(applyBillPatch(draft, { submit: false })).toMatchObject({ status: 'DRAFT', submitted_at: null });
    expect(applyBillPatch(draft, { submit: true })).toMatchObject({ status: 'PENDING_APPROVAL', submitted_at: '2026-11-21T08:00:00.000Z' });
    const rejected = { ...withStatus('REJECTED'), rejection_reason: 'Wrong amount' };
    expect(applyBillPatch(rejected, { line_items: [{ description: 'Fixed', amount: 900 }], submit: true }))
      .toMatchObject({ status: 'PENDING_APPROVAL', amount: 900, rejection_reason: null });
    const approved = withStatus('APPROVED');
    expect(applyBillPatch(approved, { submit: true })).toBe(approved);
    expect(billUpdate.request(billUpdate.args.parse({ bill_id: id(1), patch: { submit: true } })))
      .toEqual({ params: { bill_uuid: id(1) }, body: { submit: true } });
  });

  it('delete: a draft becomes a tombstone, anything else stays (the server cancels instead); confirmed by change seq', () => {
    const args = billDelete.args.parse({ bill_id: id(1) });
    expect(billDelete.request(args)).toEqual({ params: { bill_uuid: id(1) } });
    expect(billDelete.apply(created(), args).deleted).toBe(true);
    const approved = withStatus('APPROVED');
    expect(billDelete.apply(approved, args)).toBe(approved);
    expect(billDelete.confirm).toBe('change_seq');
  });

  it('edits and deletes name a bill the mirror holds', () => {
    const none = { has: () => false };
    const some = { has: (x: string) => x === id(1) };
    expect(billUpdate.check!({ bill_id: id(1), patch: {} }, none)).toBe('REQUEST_7004');
    expect(billUpdate.check!({ bill_id: id(1), patch: {} }, some)).toBeNull();
    expect(billDelete.check!({ bill_id: id(1) }, none)).toBe('REQUEST_7004');
  });

  it('the blank is the actor’s and dated by the write', () => {
    const args = createArgs();
    expect(newBill(args, { id: id(1), actor: ACTOR, at: AT })).toMatchObject({ created_by: ACTOR.user_id, created_at: AT, updated_at: AT, change_seq: 0 });
  });
});

describe('synced bills (issue 12)', () => {
  const SYNCED = '2026-11-27T04:00:00.000Z';
  const rows = new Map<string, Partial<Bill>>([[id(1), { accounting_synced_at: null }], [id(2), { accounting_synced_at: SYNCED }], [id(3), {}]]);
  const mirror = { has: (x: string) => rows.has(x), get: (x: string) => rows.get(x) };
  const line = [{ description: 'Paper', amount: 100, gl_account_id: id(5) }];

  it.each([
    ['the due date of an unsynced bill', id(1), { due_date: '2026-12-31' }, null],
    ['the due date of a bill without the mark (older server)', id(3), { due_date: '2026-12-31' }, null],
    ['the due date of a synced bill', id(2), { due_date: '2026-12-31' }, 'ACCOUNTING_7301'],
    ['the invoice date of a synced bill', id(2), { invoice_date: '2026-11-02' }, 'ACCOUNTING_7301'],
    ['the lines (coding, amounts) of a synced bill', id(2), { line_items: line }, 'ACCOUNTING_7301'],
    ['the vendor of a synced bill', id(2), { vendor_id: id(4) }, 'ACCOUNTING_7301'],
    ['the invoice number of a synced bill', id(2), { invoice_number: 'INV 8' }, 'ACCOUNTING_7301'],
    ['the currency of a synced bill', id(2), { currency: 'EUR' }, 'ACCOUNTING_7301'],
    ['the memo and the due date together', id(2), { memo: 'x', due_date: '2026-12-31' }, 'ACCOUNTING_7301'],
    ['the memo of a synced bill', id(2), { memo: 'paid by wire' }, null],
    ['the invoice document of a synced bill', id(2), { invoice_file_id: id(6) }, null],
    ['the paying entity of a synced bill', id(2), { entity_id: id(7) }, null],
    ['an unknown bill', id(8), { memo: 'x' }, 'REQUEST_7004'],
  ] as const)('check on %s → %s', (_label, billId, patch, expected) => {
    expect(billUpdate.check!(billUpdate.args.parse({ bill_id: billId, patch }), mirror)).toBe(expected);
  });

  it('lets a mirror that cannot read rows through (the server refuses instead)', () => {
    expect(billUpdate.check!({ bill_id: id(2), patch: { due_date: '2026-12-31' } }, { has: () => true })).toBeNull();
  });

  it('names the export day, and refuses only the actions that change what was exported', () => {
    expect(syncedBillRefusal(SYNCED, ['editDates'])).toBe(
      'This bill was exported to your accounting system on 2026-11-27. Mark it as not synced to change its vendor, invoice number, dates, amounts or coding.');
    expect(syncedBillRefusal(SYNCED, ['editCoding'])).not.toBeNull();
    expect(syncedBillRefusal(SYNCED, ['editPayable'])).not.toBeNull();
    for (const action of ['editMemo', 'editEntity', 'payNow', 'markPaid', 'markReconciled', 'schedule', 'cancel', 'reversePayment'] as const) {
      expect(syncedBillRefusal(SYNCED, [action])).toBeNull();
    }
    expect(syncedBillRefusal(null, ['editDates'])).toBeNull();
  });
});

describe('withDuplicateConfirmed (issue 25)', () => {
  it('adds confirm_duplicate to a create body or an update patch, and to nothing else', async () => {
    const { withDuplicateConfirmed } = await import('./bill.ts');
    const create = { id: 'b1', vendor_id: 'v', invoice_number: 'INV-1' };
    expect(withDuplicateConfirmed('bill.create', create)).toEqual({ ...create, confirm_duplicate: true });
    expect(withDuplicateConfirmed('bill.update', { bill_id: 'b1', patch: { submit: true } }))
      .toEqual({ bill_id: 'b1', patch: { submit: true, confirm_duplicate: true } });
    expect(withDuplicateConfirmed('bill.payNow', { bill_id: 'b1' })).toBeNull();
    expect(withDuplicateConfirmed('bill.update', { bill_id: 'b1' })).toBeNull();
  });
});
