import { describe, expect, it } from 'vitest';
import { approvalApprove, approvalReject } from './approval.ts';
import { reimbursementCancelPayment, reimbursementPay, reimbursementSaveDraft } from './reimbursement.ts';
import { approvalEntity, approvalSchema, type Approval } from '../entities/approval.ts';
import { reimbursementSchema } from '../entities/reimbursement.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const pending: Approval = approvalSchema.parse({
  id: id(1), object_type: 'reimbursement', object_id: id(2), user_id: id(3), approver_id: id(4), status: 'PENDING', reason: null,
  decided_by: null, decided_at: null, created_at: '2026-03-01T10:00:00.000Z', business_id: id(9), change_seq: 5,
  updated_at: '2026-03-02T10:00:00.000Z', deleted: false,
});

describe('approval commands', () => {
  it('decide at the row\'s updated_at; a rejection carries its reason, an approval none', () => {
    expect(approvalApprove.apply(pending, { approval_id: id(1) })).toMatchObject({ status: 'APPROVED', reason: null, decided_at: pending.updated_at });
    expect(approvalReject.apply(pending, { approval_id: id(1), reason: 'No receipt' })).toMatchObject({ status: 'REJECTED', reason: 'No receipt' });
    expect(pending.status).toBe('PENDING');
    expect(approvalReject.args.safeParse({ approval_id: id(1), reason: '  ' }).success).toBe(false);
    expect(approvalReject.request({ approval_id: id(1), reason: 'x' })).toEqual({ params: { approval_id: id(1) }, body: { reason: 'x' } });
  });

  it('issue 25: a decision queued on the device is dated when it was made there, not at the row\'s last server change', () => {
    const before = Date.now();
    const args = approvalApprove.args.parse({ approval_id: id(1) });
    const stamped = Date.parse(args.decided_at!);
    expect(stamped).toBeGreaterThanOrEqual(before - 1);
    expect(approvalApprove.apply(pending, args).decided_at).toBe(args.decided_at);
    // Stored with the entry: parsing it again (a reload) keeps the moment; never sent to the server.
    expect(approvalApprove.args.parse(args).decided_at).toBe(args.decided_at);
    expect(approvalApprove.request(args)).toEqual({ params: { approval_id: id(1) } });
    const rejected = approvalReject.args.parse({ approval_id: id(1), reason: 'No receipt', decided_at: '2026-03-03T09:30:00.000Z' });
    expect(approvalReject.apply(pending, rejected)).toMatchObject({ decided_at: '2026-03-03T09:30:00.000Z' });
  });

  it('the inbox filter leaves the viewer\'s own claims out', () => {
    const f = approvalEntity.query.filter.parse({ status: 'PENDING', exclude_user_ids: id(3) });
    expect(approvalEntity.query.matches(pending, f)).toBe(false);
    expect(approvalEntity.query.matches(pending, approvalEntity.query.filter.parse({ status: 'PENDING' }))).toBe(true);
    expect(approvalEntity.query.matches(pending, approvalEntity.query.filter.parse({ status: 'APPROVED,REJECTED' }))).toBe(false);
  });

  it('the inbox filter by what is reviewed: claims or card requests', () => {
    const of = (object_types: string) => approvalEntity.query.filter.parse({ object_types });
    expect(approvalEntity.query.matches(pending, of('reimbursement'))).toBe(true);
    expect(approvalEntity.query.matches(pending, of('card_request'))).toBe(false);
    expect(approvalEntity.query.matches({ ...pending, object_type: 'card_request' }, of('card_request'))).toBe(true);
    expect(approvalEntity.query.matches(pending, of('reimbursement,card_request'))).toBe(true);
    expect(approvalEntity.query.filter.safeParse({ object_types: 'card' }).success).toBe(false);
  });
});

describe('payment and draft commands', () => {
  const claim = reimbursementSchema.parse({
    id: id(2), user_id: id(3), type: 'OUT_OF_POCKET', status: 'APPROVED', merchant: 'Deli', amount: 900, currency: 'USD',
    transaction_date: '2026-03-01', memo: 'Lunch', gl_account_id: null, department_id: null, distance_miles: null, start_location: null,
    end_location: null, trip_date: null, location: null, start_date: null, end_date: null, rejection_reason: null,
    submitted_at: '2026-03-01T10:00:00.000Z', created_at: '2026-03-01T10:00:00.000Z', business_id: id(9), change_seq: 3,
    updated_at: '2026-03-01T10:00:00.000Z',
  });
  it('pay moves APPROVED to PAID and sends the method (ACH by default); cancel-payment moves back', () => {
    const args = reimbursementPay.args.parse({ reimbursement_id: id(2) });
    expect(reimbursementPay.request(args)).toEqual({ params: { reimbursement_uuid: id(2) }, body: { method: 'ACH' } });
    const paid = reimbursementPay.apply(claim, args);
    expect(paid.status).toBe('PAID');
    expect(reimbursementCancelPayment.apply(paid, { reimbursement_id: id(2) }).status).toBe('APPROVED');
  });
  it('a saved draft replaces the fields: a nullable field left out is cleared', () => {
    const draft = reimbursementSaveDraft.args.parse({
      reimbursement_id: id(2), draft: { type: 'OUT_OF_POCKET', amount: 950, currency: 'USD', transaction_date: '2026-03-02' },
    });
    expect(reimbursementSaveDraft.apply(claim, draft)).toMatchObject({ status: 'DRAFT', amount: 950, merchant: null, memo: null, submitted_at: null });
  });
});
