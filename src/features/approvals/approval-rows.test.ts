import { describe, expect, it } from 'vitest';
import { matchesApprovalFilter } from '../../../schema/entities/approval.ts';
import { joinInboxRow, reviewedText, type ApprovalView, type BillRow, type CardRequestRow, type ClaimRow } from './approval-rows.ts';
import { newBill } from '../../../schema/commands/bill.ts';
import { canDecide } from '../../lib/claim-actions.ts';
import { cardRequestDescription } from '../../lib/card-labels.ts';
import { rejectWords } from './approval-labels.ts';
import { approveConfirmTitle, needsApprovalConfirm } from './approve-confirm.ts';
import { decisionText } from './decide.ts';
import { inboxQuery, parseApprovalsSearch } from './search-params.ts';
import { inboxColumns, inboxSpec, type InboxSpecOptions } from './approvals-list.tsx';
import { rejectSubject } from './use-inbox-decisions.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-03-05T10:00:00.000Z';
const approval = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: id(1), business_id: id(9), object_type: 'reimbursement', object_id: id(2), user_id: id(3), approver_id: id(4), status: 'PENDING', reason: null,
  decided_by: null, decided_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const claim = (over: Partial<ClaimRow> = {}): ClaimRow => ({
  id: id(2), user_id: id(3), business_id: id(9), type: 'OUT_OF_POCKET', status: 'SUBMITTED', merchant: 'Lyft', amount: 4260, currency: 'USD',
  transaction_date: '2026-03-01', memo: null, gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
  end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null, receipt_ids: [],
  submitted_at: '2026-03-02T09:00:00.000Z', created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const request = (over: Partial<CardRequestRow> = {}): CardRequestRow => ({
  id: id(6), user_id: id(3), business_id: id(9), is_physical: false, amount: 200_000, currency: 'USD', interval: 'MONTHLY',
  reason: 'Client travel in March', status: 'PENDING', card_id: null, rejection_reason: null, decided_by: null, decided_at: null,
  created_at: '2026-03-04T08:00:00.000Z', change_seq: 2, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const requestApproval = (over: Partial<ApprovalView> = {}) => approval({ object_type: 'card_request', object_id: id(6), ...over });
const names = (uid: string) => (uid === id(3) ? 'Ada Lovelace' : '');

describe('joinInboxRow', () => {
  it('joins the approval with its claim and the claimant\'s name; the row acts on the approval', () => {
    expect(joinInboxRow(approval(), claim(), names)).toMatchObject({
      id: id(1), claimant: 'Ada Lovelace', description: 'Lyft', date: '2026-03-01', amount: 4260, currency: 'USD',
      submitted_at: '2026-03-02T09:00:00.000Z', pending: null, failure: null,
    });
  });

  it('without the claim yet: the approval\'s facts and a plain description', () => {
    expect(joinInboxRow(approval({ user_id: id(7) }), null, names)).toMatchObject({
      claimant: 'Someone', description: 'Claim not downloaded yet', amount: null, date: null, submitted_at: AT,
    });
  });

  it('the sync mark is the decision\'s, else the claim\'s (a refusal shows on the row)', () => {
    const refused = { command_id: id(8), message: 'You cannot review your own reimbursement.' };
    expect(joinInboxRow(approval({ pending: 'pending' }), claim({ pending: 'failed' }), names).pending).toBe('pending');
    expect(joinInboxRow(approval({ pending: 'failed', failure: refused }), claim(), names).failure).toEqual(refused);
    expect(joinInboxRow(approval(), claim({ pending: 'sending' }), names).pending).toBe('sending');
  });
});

describe('joinInboxRow for a card request', () => {
  it('reads "Card request · Virtual card · $2,000.00 a month" with the requester, the date asked and the reason', () => {
    const row = joinInboxRow(requestApproval(), request(), names);
    expect(row).toMatchObject({
      id: id(1), kind: 'card_request', claim: null, request: { id: id(6) }, claimant: 'Ada Lovelace', typeLabel: 'Card request',
      description: 'Virtual card · $2,000.00 a month', summary: 'Card request · Virtual card · $2,000.00 a month',
      reason: 'Client travel in March', amount: 200_000, currency: 'USD', date: null, submitted_at: '2026-03-04T08:00:00.000Z',
    });
  });

  it('names a physical card and each limit period', () => {
    expect(cardRequestDescription({ is_physical: true, amount: 50_000, currency: 'USD', interval: 'WEEKLY' })).toBe('Physical card · $500.00 a week');
    expect(cardRequestDescription({ is_physical: false, amount: 1_000, currency: 'EUR', interval: 'DAILY' })).toBe('Virtual card · €10.00 a day');
    expect(cardRequestDescription({ is_physical: false, amount: 100, currency: 'USD', interval: 'YEARLY' })).toBe('Virtual card · $1.00 a year');
    expect(cardRequestDescription({ is_physical: false, amount: 100, currency: 'USD', interval: 'TOTAL' })).toBe('Virtual card · $1.00 in total');
  });

  it('without the request yet: the approval\'s facts and a plain description', () => {
    expect(joinInboxRow(requestApproval(), null, names)).toMatchObject({
      kind: 'card_request', description: 'Card request not downloaded yet', summary: 'Card request not downloaded yet', reason: null,
      amount: null, currency: null, submitted_at: AT,
    });
  });

  it('a claim row keeps its claim type, and no request or reason', () => {
    const claimRow = joinInboxRow(approval(), claim(), names);
    expect(claimRow).toMatchObject({ kind: 'reimbursement', request: null, typeLabel: 'Out-of-pocket', summary: 'Lyft', reason: null });
  });

  it('the sync mark is the decision\'s, else the request\'s', () => {
    const refused = { command_id: id(8), message: 'The request was withdrawn.' };
    expect(joinInboxRow(requestApproval(), request({ pending: 'failed', failure: refused }), names)).toMatchObject({ pending: 'failed', failure: refused });
    expect(joinInboxRow(requestApproval({ pending: 'pending' }), request({ pending: 'failed', failure: refused }), names)).toMatchObject({ pending: 'pending', failure: null });
  });
});

describe('joinInboxRow for a bill', () => {
  const bill = (over: Partial<BillRow> = {}): BillRow => ({
    ...newBill(
      { vendor_id: id(8), invoice_number: 'INV-1042', invoice_date: '2026-03-01', due_date: '2026-03-31', currency: 'USD', line_items: [] },
      { id: id(5), actor: { user_id: id(3), business_id: id(9) }, at: AT },
    ),
    amount: 125_000, status: 'PENDING_APPROVAL', submitted_at: '2026-03-02T09:00:00.000Z', memo: 'March cleaning', pending: null, failure: null, ...over,
  });
  const billApproval = (over: Partial<ApprovalView> = {}) => approval({ object_type: 'bill', object_id: id(5), ...over });

  it('reads "Bill · Invoice INV-1042 · March cleaning" with the amount owed, its due date and when it was submitted', () => {
    expect(joinInboxRow(billApproval(), bill(), names)).toMatchObject({
      kind: 'bill', claim: null, request: null, typeLabel: 'Bill', description: 'Invoice INV-1042 · March cleaning',
      summary: 'Bill · Invoice INV-1042 · March cleaning', amount: 125_000, currency: 'USD', date: '2026-03-31',
      submitted_at: '2026-03-02T09:00:00.000Z', claimant: 'Ada Lovelace',
    });
  });

  it('without the bill yet: says so, never "claim"', () => {
    expect(joinInboxRow(billApproval(), null, names)).toMatchObject({ bill: null, description: 'Bill not downloaded yet', amount: null, submitted_at: AT });
  });

  it('anyone whose mirror holds a pending bill approval may decide it, but never their own bill', () => {
    const viewer = { id: id(4), business_id: id(9), role: 'BUSINESS_USER', is_manager: false, user_permissions: [] } as unknown as Parameters<typeof canDecide>[1];
    expect(canDecide(billApproval(), viewer)).toBe(true);
    expect(canDecide(billApproval({ user_id: id(4) }), viewer)).toBe(false);
    expect(canDecide(billApproval({ status: 'APPROVED' }), viewer)).toBe(false);
    // A claim still needs a §6 reviewer.
    expect(canDecide(approval(), viewer)).toBe(false);
  });
});

describe('joinInboxRow for a vendor payment and a payee change (issue 28)', () => {
  const asked = { status: 'PENDING', method: 'SCHEDULE', pay_on: '2026-04-15', requested_by: id(3), requested_at: '2026-03-06T09:00:00.000Z', reason: null, decided_by: null } as const;
  const bill = (): BillRow => ({
    ...newBill(
      { vendor_id: id(8), invoice_number: 'INV-77', invoice_date: '2026-03-01', due_date: '2026-03-31', currency: 'USD', line_items: [] },
      { id: id(5), actor: { user_id: id(3), business_id: id(9) }, at: AT },
    ),
    amount: 90_000, status: 'APPROVED', payment_approval: asked, pending: null, failure: null,
  });

  it('a payment reads "Vendor payment · Invoice INV-77 · pay on …" with its amount and the day it would go', () => {
    const row = joinInboxRow(approval({ object_type: 'vendor-payment', object_id: id(5) }), bill(), names);
    expect(row).toMatchObject({
      kind: 'vendor-payment', bill: { id: id(5) }, typeLabel: 'Vendor payment', description: 'Invoice INV-77 · pay on 2026-04-15',
      amount: 90_000, currency: 'USD', date: '2026-04-15', submitted_at: asked.requested_at, claimant: 'Ada Lovelace',
    });
    expect(needsApprovalConfirm([row])).toBe(true);
    expect(approveConfirmTitle([row])).toBe('Approve 1 vendor payment · $900.00 USD');
  });

  it('a payee change names its vendor for the drawer and is confirmed without an amount', () => {
    const row = joinInboxRow(approval({ object_type: 'payee', object_id: id(8) }), null, names);
    expect(row).toMatchObject({ kind: 'payee', vendorId: id(8), typeLabel: 'Payee change', amount: null, bill: null });
    expect(approveConfirmTitle([row])).toBe('Approve 1 payee change');
    const viewer = { id: id(4), business_id: id(9), role: 'BUSINESS_USER', is_manager: false, user_permissions: [] } as unknown as Parameters<typeof canDecide>[1];
    expect(canDecide(approval({ object_type: 'payee' }), viewer)).toBe(true);
    expect(canDecide(approval({ object_type: 'vendor-payment', user_id: id(4) }), viewer)).toBe(false);
  });
});

describe('decision words', () => {
  it('count claims and card requests apart', () => {
    expect(reviewedText(['reimbursement'])).toBe('1 claim');
    expect(reviewedText(['card_request', 'card_request'])).toBe('2 card requests');
    expect(reviewedText(['reimbursement', 'card_request', 'reimbursement'])).toBe('2 claims and 1 card request');
    expect(reviewedText(['bill'])).toBe('1 bill');
    expect(reviewedText(['bill', 'reimbursement', 'card_request', 'bill'])).toBe('1 claim, 1 card request and 2 bills');
    expect(decisionText('approve', ['reimbursement', 'card_request'], true)).toBe('Approved 1 claim and 1 card request.');
    expect(decisionText('reject', ['card_request'], false)).toBe('Rejected 1 card request. It syncs when you’re back online.');
    expect(decisionText('approve', Array(2500).fill('reimbursement'), false)).toBe('Approved 2,500 claims. They sync when you’re back online.');
  });

  it('the reject dialog tells claimants, requesters, or both', () => {
    expect(rejectWords(['reimbursement']).after).toBe('The claimants see the reason on their claims and can edit and resubmit.');
    expect(rejectWords(['card_request', 'card_request']).after).toBe('The requesters see the reason on their card requests.');
    expect(rejectWords(['card_request', 'reimbursement']).after).toBe('The claimants and requesters see the reason.');
    expect(rejectWords(['bill']).after).toBe('Whoever submitted the bills sees the reason and can fix and resubmit them.');
    expect(rejectWords(['bill', 'reimbursement']).after).toBe('The people who submitted them see the reason.');
  });
});

describe('approvals search params', () => {
  it('keeps good values, drops bad ones and the default tab', () => {
    expect(parseApprovalsSearch({ tab: 'decided', open: id(1) })).toEqual({ tab: 'decided', open: id(1) });
    expect(parseApprovalsSearch({ type: 'card_requests' })).toEqual({ type: 'card_requests' });
    expect(parseApprovalsSearch({ type: 'claims', tab: 'decided' })).toEqual({ type: 'claims', tab: 'decided' });
    expect(parseApprovalsSearch({ type: 'cards' })).toEqual({});
    expect(parseApprovalsSearch({ tab: 'pending', open: 'nope' })).toEqual({});
    expect(parseApprovalsSearch({ tab: 'all', extra: 'x' })).toEqual({});
  });

  it('queries a tab\'s statuses and never the viewer\'s own claims', () => {
    expect(inboxQuery('pending', id(5))).toMatchObject({ filter: { status: ['PENDING'], exclude_user_ids: [id(5)] }, sort: 'created_asc' });
    expect(inboxQuery('decided', id(5)).filter.status).toEqual(['APPROVED', 'REJECTED', 'CANCELED']);
    expect(inboxQuery('pending', id(5)).key).not.toBe(inboxQuery('decided', id(5)).key);
  });

  it('the Type filter narrows to one kind; without it (the badge\'s count) both kinds count', () => {
    const claimApproval = approval();
    const cardApproval = requestApproval({ id: id(10) });
    const shown = (type?: 'claims' | 'card_requests') =>
      [claimApproval, cardApproval].filter((a) => matchesApprovalFilter(a, inboxQuery('pending', id(5), type).filter)).map((a) => a.object_type);
    expect(shown()).toEqual(['reimbursement', 'card_request']);
    expect(shown('claims')).toEqual(['reimbursement']);
    expect(shown('card_requests')).toEqual(['card_request']);
    expect(new Set([inboxQuery('pending', id(5)).key, inboxQuery('pending', id(5), 'claims').key, inboxQuery('pending', id(5), 'card_requests').key]).size).toBe(3);
  });
});

describe('rejectSubject', () => {
  it('names one row with its amount (a card request without), never many', () => {
    const lyft = joinInboxRow(approval(), claim(), names);
    expect(rejectSubject([lyft], names)).toBe(`Ada Lovelace: ${lyft.summary}, $42.60`);
    const asked = joinInboxRow(requestApproval(), request(), names);
    expect(rejectSubject([asked], names)).toBe(`Ada Lovelace: ${asked.summary}`);
    expect(rejectSubject([lyft, asked], names)).toBeUndefined();
    expect(rejectSubject([joinInboxRow(approval(), null, names)], names)).toBeUndefined();
  });
});

describe('inboxSpec', () => {
  const base: InboxSpecOptions = {
    tab: 'pending', type: undefined, q: '', searching: false, mirrored: true, reviewer: true, empty: false, columns: inboxColumns(names),
    userName: names, matchingIds: async () => [], approve: () => undefined, reject: () => undefined, clearSearch: () => undefined,
  };

  it('keeps its bar while nothing is selected: the count waiting (or matching), "Loading…" before the answer', () => {
    const idle = inboxSpec(base).select!.idleText!;
    expect(idle(null)).toBe('Loading…');
    expect(idle(1204)).toBe('1,204 waiting');
    expect(inboxSpec({ ...base, searching: true, q: 'ada' }).select!.idleText!(3)).toBe('3 waiting match');
    expect(inboxSpec({ ...base, tab: 'decided' }).select!.idleText!(0)).toBe('0 decided');
  });

  it('approves and rejects on the Pending tab only, the count in the words from two', () => {
    const [approve, reject] = inboxSpec(base).select!.actions;
    expect([approve!.label(0), approve!.label(1), approve!.label(3)]).toEqual(['Approve', 'Approve', 'Approve 3']);
    expect([reject!.label(1), reject!.label(2)]).toEqual(['Reject…', 'Reject 2…']);
    expect(inboxSpec({ ...base, tab: 'decided' }).select!.actions).toEqual([]);
  });

  it('shows a blank state only for an empty Pending tab or a search matching nothing', () => {
    expect(inboxSpec(base).blank).toBeUndefined();
    expect(inboxSpec({ ...base, empty: true }).blank).toBeDefined();
    expect(inboxSpec({ ...base, empty: true, tab: 'decided' }).blank).toBeUndefined();
    expect(inboxSpec({ ...base, empty: true, tab: 'decided', searching: true, q: 'x' }).blank).toBeDefined();
  });
});

describe('joinInboxRow: a travel booking (issue 27)', () => {
  const seg = {
    airline_code: 'TP', airline_name: 'TAP', flight_number: 'TP238', origin: 'SFO', destination: 'LIS', departs_at: '2026-03-09T18:30:00-08:00',
    arrives_at: '2026-03-10T14:55:00+00:00', duration_minutes: 625, cabin: 'BUSINESS' as const,
  };
  const booking = {
    id: id(20), trip_id: id(21), kind: 'FLIGHT' as const, status: 'PENDING_APPROVAL' as const, offer_id: id(22), price: { amount: 312_000, currency: 'USD' },
    in_policy: false, policy_reasons: ['Business cabin on a 10 h 25 m flight: the policy allows Premium economy under 10 h'], segments: [seg], hotel: null,
    confirmation_code: null, card_id: null, transaction_id: null, refund_transaction_id: null, approval_id: id(1), rejection_reason: null,
    booked_at: null, canceled_at: null, created_at: '2026-03-01T09:00:00.000Z',
  };
  const trip = {
    id: id(21), user_id: id(3), business_id: id(9), name: 'Lisbon offsite', destination: 'LIS', destination_name: 'Lisbon', start_date: '2026-03-10',
    end_date: '2026-03-12', purpose: null, status: 'PLANNED' as const, budget: null, total: { amount: 0, currency: 'USD' }, totals: [], bookings: [booking],
    transaction_ids: [], reimbursement_ids: [], card_id: null, canceled_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null,
  };
  const bookingApproval = approval({ object_type: 'travel_booking' as never, object_id: id(20) });

  it('names the trip and the booking, with the policy reasons, price and first day', () => {
    expect(joinInboxRow(bookingApproval, trip, names)).toMatchObject({
      kind: 'travel_booking', typeLabel: 'Travel booking', description: 'Lisbon offsite · Flight SFO → LIS · Mar 9 · Business · $3,120.00',
      reason: booking.policy_reasons[0], amount: 312_000, currency: 'USD', date: '2026-03-09', submitted_at: '2026-03-01T09:00:00.000Z', booking, trip,
    });
  });

  it('says so while the trip is not on this device', () => {
    expect(joinInboxRow(bookingApproval, null, names)).toMatchObject({ description: 'Trip not downloaded yet', amount: null, booking: null, trip: null });
    expect(reviewedText(['travel_booking' as never, 'reimbursement'])).toBe('1 claim and 1 travel booking');
  });
});
