import { describe, expect, it } from 'vitest';
import { newBill } from '../../../schema/commands/bill.ts';
import { joinInboxRow, type ApprovalView, type BillRow, type ClaimRow } from './approval-rows.ts';
import { amountsByCurrency, approveConfirmTitle, needsApprovalConfirm } from './approve-confirm.ts';
import { inboxSearchText, matchesInboxSearch, searchTerms } from './inbox-search.ts';
import { parseApprovalsSearch } from './search-params.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-03-05T10:00:00.000Z';
const approval = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: id(1), business_id: id(9), object_type: 'reimbursement', object_id: id(2), user_id: id(3), approver_id: id(4), status: 'PENDING', reason: null,
  decided_by: null, decided_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const claim = (over: Partial<ClaimRow> = {}): ClaimRow => ({
  id: id(2), user_id: id(3), business_id: id(9), type: 'OUT_OF_POCKET', status: 'SUBMITTED', merchant: 'Lyft', amount: 4260, currency: 'USD',
  transaction_date: '2026-03-01', memo: 'Airport run', gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
  end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null, receipt_ids: [],
  submitted_at: '2026-03-02T09:00:00.000Z', created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const bill = (over: Partial<BillRow> = {}): BillRow => ({
  ...newBill(
    { vendor_id: id(8), invoice_number: 'INV-1042', invoice_date: '2026-03-01', due_date: '2026-03-31', currency: 'USD', line_items: [] },
    { id: id(5), actor: { user_id: id(7), business_id: id(9) }, at: AT },
  ),
  amount: 1_240_000, status: 'PENDING_APPROVAL', submitted_at: '2026-03-02T09:00:00.000Z', memo: 'March cleaning', pending: null, failure: null, ...over,
});
const users = (uid: string) => ({ [id(3)]: 'Ada Lovelace', [id(7)]: 'Grace Hopper' })[uid] ?? '';
const names = { vendor: (vid: string) => (vid === id(8) ? 'Sparkle Cleaning Co' : '') };
const claimRow = joinInboxRow(approval(), claim(), users);
const billRow = joinInboxRow(approval({ id: id(11), object_type: 'bill', object_id: id(5), user_id: id(7) }), bill(), users);
const gbpBill = joinInboxRow(approval({ id: id(12), object_type: 'bill', object_id: id(6), user_id: id(7) }), bill({ id: id(6), amount: 50_000, currency: 'GBP' }), users);
const search = (q: string) => [claimRow, billRow, gbpBill].filter((r) => matchesInboxSearch(r, q, names)).map((r) => r.id);

describe('approvals search (issue 25)', () => {
  it('finds by requester, vendor, merchant, memo and invoice number, any case, every word', () => {
    expect(search('ada')).toEqual([id(1)]);
    expect(search('HOPPER')).toEqual([id(11), id(12)]);
    expect(search('sparkle')).toEqual([id(11), id(12)]);
    expect(search('lyft')).toEqual([id(1)]);
    expect(search('airport')).toEqual([id(1)]);
    expect(search('march clean')).toEqual([id(11), id(12)]);
    expect(search('inv-1042')).toEqual([id(11), id(12)]);
    expect(search('grace lyft')).toEqual([]);
  });

  it('finds by amount as it is typed: with or without symbol, separators and cents, and by currency', () => {
    expect(search('12,400')).toEqual([id(11)]);
    expect(search('12400')).toEqual([id(11)]);
    expect(search('$12,400.00')).toEqual([id(11)]);
    expect(search('42.60')).toEqual([id(1)]);
    expect(search('£500')).toEqual([id(12)]);
    expect(search('gbp')).toEqual([id(12)]);
  });

  it('an empty or blank search matches everything; a bill not downloaded yet matches by its requester only', () => {
    expect(search('   ')).toEqual([id(1), id(11), id(12)]);
    expect(searchTerms('  a  B ')).toEqual(['a', 'b']);
    const missing = joinInboxRow(approval({ id: id(13), object_type: 'bill', object_id: id(14), user_id: id(7) }), null, users);
    expect(matchesInboxSearch(missing, 'grace', names)).toBe(true);
    expect(matchesInboxSearch(missing, 'sparkle', names)).toBe(false);
    expect(inboxSearchText(missing, names)).not.toContain('null');
  });

  it('the search is in the URL (q), at most 200 characters', () => {
    expect(parseApprovalsSearch({ q: 'sparkle', type: 'bills' })).toEqual({ q: 'sparkle', type: 'bills' });
    expect(parseApprovalsSearch({ q: 'x'.repeat(201) })).toEqual({});
  });
});

describe('approving bills is confirmed with the amounts (issue 25 item 7)', () => {
  it('claims alone need no confirmation; any bill does', () => {
    expect(needsApprovalConfirm([claimRow])).toBe(false);
    expect(needsApprovalConfirm([claimRow, billRow])).toBe(true);
  });

  it('a travel booking is charged when approved (issue 27): it confirms with its price', () => {
    const booking = { ...billRow, kind: 'travel_booking' as const, amount: 45_600 };
    expect(needsApprovalConfirm([claimRow, booking])).toBe(true);
    expect(approveConfirmTitle([booking])).toBe('Approve 1 travel booking · $456.00 USD');
  });

  it('sums per currency, each with its ISO code', () => {
    const another = { ...billRow, amount: 10_000 };
    expect(amountsByCurrency([billRow, gbpBill, another])).toBe('$12,500.00 USD, £500.00 GBP');
    expect(approveConfirmTitle([billRow, gbpBill, another])).toBe('Approve 3 bills · $12,500.00 USD, £500.00 GBP');
    expect(approveConfirmTitle([billRow])).toBe('Approve 1 bill · $12,400.00 USD');
  });

  it('names the claims chosen with them, and never sums a bill it has not downloaded as zero', () => {
    const missing = joinInboxRow(approval({ id: id(13), object_type: 'bill', object_id: id(14) }), null, users);
    expect(approveConfirmTitle([claimRow, billRow, missing])).toBe('Approve 1 claim and 2 bills · $12,400.00 USD and 1 not downloaded yet');
  });
});
