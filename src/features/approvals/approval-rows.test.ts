import { describe, expect, it } from 'vitest';
import { joinInboxRow, type ApprovalView, type ClaimRow } from './approval-rows.ts';
import { inboxQuery, parseApprovalsSearch } from './search-params.ts';

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

describe('approvals search params', () => {
  it('keeps good values, drops bad ones and the default tab', () => {
    expect(parseApprovalsSearch({ tab: 'decided', open: id(1) })).toEqual({ tab: 'decided', open: id(1) });
    expect(parseApprovalsSearch({ tab: 'pending', open: 'nope' })).toEqual({});
    expect(parseApprovalsSearch({ tab: 'all', extra: 'x' })).toEqual({});
  });

  it('queries a tab\'s statuses and never the viewer\'s own claims', () => {
    expect(inboxQuery('pending', id(5))).toMatchObject({ filter: { status: ['PENDING'], exclude_user_ids: [id(5)] }, sort: 'created_asc' });
    expect(inboxQuery('decided', id(5)).filter.status).toEqual(['APPROVED', 'REJECTED', 'CANCELED']);
    expect(inboxQuery('pending', id(5)).key).not.toBe(inboxQuery('decided', id(5)).key);
  });
});
