import { describe, expect, it } from 'vitest';
import type { BillStatus } from '../../../schema/entities/bill.ts';
import type { PoMatch } from '../../../schema/bill-match.ts';
import {
  bulkOffers, bulkOutcomeText, drawerActionLabel, drawerActions, MISMATCH_HELD, mismatchReason, OFFLINE_REASON, payBlock, payPlan, type OfferedBulkAction,
} from './bill-actions.ts';

const bill = (n: number, status: BillStatus) => ({ id: `b${n}`, status });
const offer = (selected: { id: string; status: BillStatus }[], action: OfferedBulkAction, online = true, limit?: number) =>
  bulkOffers(selected, { online, ...(limit ? { limit } : {}) }).find((o) => o.action === action)!;

describe('bulkOffers', () => {
  const mixed = [bill(1, 'APPROVED'), bill(2, 'APPROVED'), bill(3, 'PAID'), bill(4, 'PENDING_APPROVAL')];

  it.each<[OfferedBulkAction, string[]]>([
    ['pay-now', ['b1', 'b2']],
    ['mark-bills-as-paid', ['b1', 'b2']],
    ['mark-bills-as-reconciled', ['b3']],
    ['remind-next-approvers', ['b4']],
    ['cancel', ['b1', 'b2', 'b4']],
    ['due-date', ['b1', 'b2', 'b4']],
    ['payment-date', ['b1', 'b2']],
    ['memo', ['b1', 'b2', 'b3', 'b4']],
  ])('%s acts on the bills whose status allows it', (action, eligible) => {
    const o = offer(mixed, action);
    expect(o.eligible).toEqual(eligible);
    expect(o.skipped).toBe(mixed.length - eligible.length);
    expect(o.disabled).toBeNull();
  });

  it('is disabled with the rule’s words when no selected bill qualifies', () => {
    const o = offer([bill(1, 'DRAFT')], 'retry-payment');
    expect(o.eligible).toEqual([]);
    expect(o.disabled).toBe('None of the selected bills can: only a bill whose payment failed can.');
    expect(offer([bill(1, 'PAID')], 'pay-now').disabled).toMatch(/only an approved or scheduled bill can be/);
  });

  it('offline, offers paying alone (queued), within the same limits', () => {
    for (const o of bulkOffers(mixed, { online: false })) {
      if (o.action === 'pay-now') expect(o.disabled).toBeNull();
      else expect(o.disabled).toBe(OFFLINE_REASON);
    }
    expect(offer([bill(1, 'PAID')], 'pay-now', false).disabled).toMatch(/only an approved or scheduled bill can be/);
    const many = Array.from({ length: 51 }, (_, i) => bill(i, 'APPROVED'));
    expect(offer(many, 'pay-now', false).disabled).toBe('Select at most 50 bills at a time (51 selected).');
  });

  it('keeps to the bulk limit (50 unless told)', () => {
    const many = Array.from({ length: 51 }, (_, i) => bill(i, 'APPROVED'));
    expect(offer(many, 'pay-now').disabled).toBe('Select at most 50 bills at a time (51 selected).');
    expect(offer(many.slice(0, 50), 'pay-now').disabled).toBeNull();
    expect(offer(many.slice(0, 3), 'pay-now', true, 2).disabled).toMatch(/at most 2 bills/);
    // "Select all" of thousands: the count decides, the rows are not read.
    expect(bulkOffers([], { online: true, count: 3000 })[0]!.disabled).toBe('Select at most 50 bills at a time (3,000 selected).');
    // The business's bulk_bill_creation_limit (§3), as the page passes it.
    expect(bulkOffers([], { online: true, count: 121, limit: 120 })[0]!.disabled).toBe('Select at most 120 bills at a time (121 selected).');
    expect(bulkOffers([], { online: true, count: 60, limit: 120 })[0]!.disabled).not.toMatch(/at most/);
  });
});

describe('bulkOutcomeText', () => {
  const ok = (id: string) => ({ id, ok: true });
  const refused = (id: string, message: string) => ({ id, ok: false, error_v2: { error_code: 'REQUEST_7001', message } });

  it('counts what was done, what the server refused (by message) and what was skipped', () => {
    const already = 'This bill is paid (status PAID) and cannot be marked as paid.';
    const out = bulkOutcomeText('mark-bills-as-paid', [ok('a'), ok('b'), refused('c', already)], 1);
    expect(out.failed).toBe(1);
    expect(out.text).toBe(
      `2 bills marked as paid. 1 not changed: ${already} 1 skipped: only an approved, scheduled or failed-payment bill can be.`,
    );
  });

  it('says when nothing was done', () => {
    expect(bulkOutcomeText('pay-now', [refused('a', 'No.'), refused('b', 'No.')], 0)).toEqual({ text: 'No bills sent for payment. 2 not changed: No.', failed: 2 });
    expect(bulkOutcomeText('cancel', [ok('a')], 0).text).toBe('1 bill canceled.');
  });

  it('says a payment that only asked for approval (vendor-payment policy) was not sent', () => {
    const asked = (id: string) => ({ id, ok: true, bill: { payment_approval: { status: 'PENDING' } } }) as unknown as ReturnType<typeof ok>;
    expect(bulkOutcomeText('pay-now', [asked('a'), asked('b')], 0).text)
      .toBe('2 bills sent for payment approval: nothing is paid until the approvers approve.');
    expect(bulkOutcomeText('pay-now', [ok('a'), asked('b')], 0).text)
      .toBe('1 bill sent for payment. 1 bill sent for payment approval: nothing is paid until the approvers approve.');
  });
});

describe('drawerActions', () => {
  it.each<[BillStatus, string[]]>([
    ['DRAFT', ['submit', 'edit', 'delete']],
    ['PENDING_APPROVAL', ['remindApprovers', 'cancel']],
    ['REJECTED', ['submit', 'edit', 'cancel']],
    ['APPROVED', ['payNow', 'markPaid', 'cancel']],
    ['SCHEDULED', ['payNow', 'markPaid', 'cancel']],
    ['PAYMENT_FAILED', ['markPaid', 'retryPayment', 'cancel']],
    ['PAID', ['markReconciled', 'reversePayment']],
    ['RECONCILED', []],
    ['CANCELED', []],
  ])('%s offers %j', (status, actions) => {
    expect(drawerActions(status)).toEqual(actions);
  });

  it('holds back what acts on the server’s state while a change to the bill waits to sync', () => {
    expect(drawerActions('SCHEDULED', true)).toEqual([]);
    expect(drawerActions('PAID', true)).toEqual(['markReconciled']);
    expect(drawerActions('DRAFT', true)).toEqual(['submit', 'edit', 'delete']);
    expect(drawerActions('PENDING_APPROVAL', true)).toEqual(['remindApprovers']);
  });

  it('words a rejected bill’s submit as a resubmission', () => {
    expect(drawerActionLabel('submit', 'DRAFT')).toBe('Submit for approval');
    expect(drawerActionLabel('submit', 'REJECTED')).toBe('Resubmit for approval');
  });
});

describe('payPlan: the bulk "Pay now" leaves out what the drawer would not pay (issue 25)', () => {
  const TODAY = '2026-03-10';
  const verified = { name: 'Acme', bank_account: { verified_at: '2026-01-01T00:00:00Z' } } as never;
  const vendors: Record<string, unknown> = {
    ok: verified,
    none: { name: 'No Bank Co', bank_account: null },
    unverified: { name: 'Unverified Ltd', bank_account: { verified_at: null } },
  };
  const vendorOf = (id: string) => vendors[id] as never;
  const pay = (id: string, over: Record<string, unknown> = {}) => ({
    id, vendor_id: 'ok', status: 'APPROVED' as BillStatus, currency: 'USD', amount: 10_000, payment_date: null as string | null, payment_attempt: 0, pending: null as string | null, ...over,
  });

  it('skips a bill whose payment is processing or waiting to sync, and one whose vendor cannot be paid, each with why', () => {
    const bills = [
      pay('a'),
      pay('processing', { status: 'SCHEDULED', payment_date: '2026-03-09', payment_attempt: 1 }),
      pay('queued', { pending: 'pending' }),
      pay('sending', { status: 'SCHEDULED', pending: 'sending' }),
      pay('nobank', { vendor_id: 'none' }),
      pay('unverified', { vendor_id: 'unverified' }),
      pay('b', { amount: 2_500 }),
      // Scheduled for later, not sent yet: paying it now is fine.
      pay('later', { status: 'SCHEDULED', payment_date: '2026-03-20', payment_attempt: 0 }),
      // A vendor not on this device yet: the server answers for it.
      pay('unknown', { vendor_id: 'elsewhere' }),
    ];
    const plan = payPlan(bills, vendorOf, TODAY);
    expect(plan.paying.map((b) => b.id)).toEqual(['a', 'b', 'later', 'unknown']);
    expect(plan.totals).toEqual([{ currency: 'USD', amount: 32_500, count: 4 }]);
    expect(plan.skipped.map((s) => [s.bill.id, s.reason])).toEqual([
      ['processing', 'Its payment is already processing: it is not sent again.'],
      ['queued', 'A payment or change of this bill is waiting to sync: it is not sent again.'],
      ['sending', 'A payment or change of this bill is waiting to sync: it is not sent again.'],
      ['nobank', expect.stringContaining('No Bank Co has no bank account on file')],
      ['unverified', expect.stringContaining('Unverified Ltd’s bank account is not verified')],
    ]);
  });

  it('is the drawer’s rule too: a refused or failed change does not hold a bill back; a non-USD bill cannot be paid by ACH', () => {
    expect(payBlock(pay('x', { pending: 'failed' }), verified, TODAY)).toBeNull();
    expect(payBlock(pay('x', { pending: 'conflict' }), verified, TODAY)).toBeNull();
    expect(payBlock(pay('x', { currency: 'EUR' }), verified, TODAY)).toMatchObject({ reason: 'vendor', message: expect.stringContaining('US dollars only') });
    expect(payBlock(pay('x', { status: 'SCHEDULED', payment_date: TODAY, payment_attempt: 2 }), verified, TODAY)).toMatchObject({ reason: 'processing' });
  });
});

describe('payPlan: a bill MISMATCHED with its purchase order is said before paying and left out (issue 28)', () => {
  const TODAY = '2026-03-10';
  const verified = { name: 'Acme', bank_account: { verified_at: '2026-01-01T00:00:00Z' } } as never;
  const L = (n: number) => `1111111${n}-1111-4111-8111-111111111111`;
  const match = (status: PoMatch['status'], texts: string[] = []): PoMatch => ({
    status, reasons: [],
    lines: texts.map((text, i) => ({ line_id: L(i), po_line_id: null, matched: false, reasons: [{ code: 'QUANTITY_OVER_RECEIVED', text }] })),
    override: status === 'OVERRIDDEN' ? { by: L(9), at: '2026-03-01T00:00:00Z', reason: 'Agreed by phone' } : null, checked_at: '2026-03-01T00:00:00Z',
  } as PoMatch);
  const pay = (id: string, po_match: PoMatch | null, over: Record<string, unknown> = {}) => ({
    id, vendor_id: 'ok', status: 'APPROVED' as BillStatus, currency: 'USD', amount: 10_000, payment_date: null as string | null, payment_attempt: 0, pending: null as string | null, po_match, ...over,
  });

  it('refuses MISMATCHED bills with their reasons; MATCHED, OVERRIDDEN and bills with no PO are paid', () => {
    const plan = payPlan([
      pay('none', null),
      pay('matched', match('MATCHED')),
      pay('short', match('MISMATCHED', ['Billed 5, received 3'])),
      pay('overridden', match('OVERRIDDEN', ['Billed 5, received 3'])),
      pay('many', match('MISMATCHED', ['Billed 5, received 3', 'Unit price $50.00, PO $45.00', 'Billed 2, ordered 1']), { amount: 4_000 }),
    ], () => verified, TODAY);
    expect(plan.paying.map((b) => b.id)).toEqual(['none', 'matched', 'overridden']);
    expect(plan.totals).toEqual([{ currency: 'USD', amount: 30_000, count: 3 }]);
    expect(plan.refused.map((r) => [r.bill.id, r.reason])).toEqual([
      ['short', 'Does not match its purchase order: Line 1: Billed 5, received 3.'],
      ['many', 'Does not match its purchase order: Line 1: Billed 5, received 3. Line 2: Unit price $50.00, PO $45.00. (1 more in the bill)'],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('a bill the pay rule already holds back is skipped for that, not refused twice', () => {
    const plan = payPlan([pay('queued', match('MISMATCHED', ['Billed 5, received 3']), { pending: 'pending' })], () => verified, TODAY);
    expect(plan.skipped.map((s) => s.bill.id)).toEqual(['queued']);
    expect(plan.refused).toEqual([]);
  });

  it('mismatchReason is null unless MISMATCHED; says so even with no reason given', () => {
    expect(mismatchReason(null)).toBeNull();
    expect(mismatchReason(undefined)).toBeNull();
    expect(mismatchReason(match('MATCHED'))).toBeNull();
    expect(mismatchReason(match('OVERRIDDEN', ['x']))).toBeNull();
    expect(mismatchReason(match('MISMATCHED'))).toBe('Does not match its purchase order: the match found a difference.');
  });

  it('the outcome counts what was held back before sending, by reason', () => {
    const sent = [{ bill_id: 'a', ok: true }] as never;
    expect(bulkOutcomeText('pay-now', sent, 0, [MISMATCH_HELD, MISMATCH_HELD, 'Its payment is already processing: it is not sent again.']).text).toBe(
      `1 bill sent for payment. 2 not sent: ${MISMATCH_HELD} 1 not sent: Its payment is already processing: it is not sent again.`,
    );
  });
});
