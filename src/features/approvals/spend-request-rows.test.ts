import { describe, expect, it } from 'vitest';
import { joinInboxRow, type ApprovalView, type SpendRequestRow } from './approval-rows.ts';
import { approveConfirmTitle, needsApprovalConfirm } from './approve-confirm.ts';
import { rejectWords } from './approval-labels.ts';
import { inboxSearchText } from './inbox-search.ts';
import { inboxQuery, parseApprovalsSearch } from './search-params.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-03-05T10:00:00.000Z';
const approval = (over: Partial<ApprovalView> = {}): ApprovalView => ({
  id: id(1), business_id: id(9), object_type: 'spend_request', object_id: id(2), user_id: id(3), approver_id: id(4), status: 'PENDING', reason: null,
  decided_by: null, decided_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
});
const spendRequest = (over: Partial<SpendRequestRow> = {}): SpendRequestRow => ({
  id: id(2), user_id: id(3), requested_by: id(3), type: 'GENERAL_EXPENSE', status: 'PENDING_APPROVAL', amount: { amount: 50_000, currency: 'USD' },
  interval: 'MONTHLY', description: 'Team offsite', vendor_id: null, line_items: [], needed_by: '2026-03-20', spend_allocation_id: null, document_ids: [],
  approval_id: id(1), rejection_reason: null, card_id: null, purchase_order_id: null, submitted_at: '2026-03-05T09:00:00.000Z', decided_at: null,
  fulfilled_at: null, canceled_at: null, created_at: AT, change_seq: 1, updated_at: AT, deleted: false, pending: null, failure: null, ...over,
} as SpendRequestRow);
const names = (uid: string) => (uid === id(3) ? 'Ana Ruiz' : '');

describe('the inbox with spend requests', () => {
  it('joins "Spend request · General expense · $500.00 a month" with the description, needed-by date and amount', () => {
    expect(joinInboxRow(approval(), spendRequest(), names)).toMatchObject({
      kind: 'spend_request', spendRequest: { id: id(2) }, claimant: 'Ana Ruiz', typeLabel: 'Spend request',
      description: 'General expense · $500.00 a month', summary: 'Spend request · General expense · $500.00 a month',
      reason: 'Team offsite', date: '2026-03-20', amount: 50_000, currency: 'USD', submitted_at: '2026-03-05T09:00:00.000Z',
    });
  });
  it('a request not downloaded yet says so', () => {
    expect(joinInboxRow(approval(), null, names)).toMatchObject({ description: 'Spend request not downloaded yet', amount: null, spendRequest: null });
  });
  it('approving is confirmed with the amounts (it issues cards or POs)', () => {
    const row = joinInboxRow(approval(), spendRequest(), names);
    expect(needsApprovalConfirm([row])).toBe(true);
    expect(approveConfirmTitle([row])).toBe('Approve 1 spend request · $500.00 USD');
  });
  it('search reads the vendor and the lines', () => {
    const row = joinInboxRow(approval(), spendRequest({ type: 'PRODUCT_OR_SERVICE', vendor_id: id(5), line_items: [{ id: id(6), description: 'Standing desk', quantity: 2, unit_price: 25_000 }] }), names);
    const text = inboxSearchText(row, { vendor: (v) => (v === id(5) ? 'Acme Furniture' : '') });
    expect(text).toContain('acme furniture');
    expect(text).toContain('standing desk');
  });
  it('the Type filter narrows to spend requests; the reject words name them', () => {
    expect(parseApprovalsSearch({ type: 'spend_requests' }).type).toBe('spend_requests');
    expect(inboxQuery('pending', id(4), 'spend_requests').filter.object_types).toEqual(['spend_request']);
    expect(rejectWords(['spend_request']).after).toBe('The requesters see the reason on their spend requests.');
  });
});
