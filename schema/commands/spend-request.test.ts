import { describe, expect, it } from 'vitest';
import { spendRequestSchema, type SpendRequest } from '../entities/spend-request.ts';
import {
  applySpendRequestCancel, applySpendRequestPatch, spendRequestCancel, spendRequestCreate, spendRequestDelete, spendRequestUpdate,
} from './spend-request.ts';
import { lineIdOf } from './bill.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2026-11-29T12:00:00.000Z';
const ACTOR = { user_id: id(2), business_id: id(9) };
const VENDOR = id(30);

const createArgs = (over: Record<string, unknown> = {}) => spendRequestCreate.args.parse({
  id: id(1), type: 'GENERAL_EXPENSE', amount: { amount: 50_000, currency: 'USD' }, description: ' Offsite budget ', ...over,
});
const created = (over: Record<string, unknown> = {}): SpendRequest => {
  const args = createArgs(over);
  return spendRequestCreate.apply(spendRequestCreate.blank!(args, { id: args.id, actor: ACTOR, at: AT }), args);
};
const purchase = (over: Record<string, unknown> = {}) => ({
  type: 'PRODUCT_OR_SERVICE', vendor_id: VENDOR, amount: { amount: 5 * 2_000 + 1_500, currency: 'USD' },
  line_items: [{ description: 'Monitor', quantity: 5, unit_price: 2_000 }, { description: 'Cable', quantity: 1, unit_price: 1_500 }], ...over,
});

describe('spendRequest.create', () => {
  it('made offline it shows at once: the actor’s, PENDING_APPROVAL, submitted at the write, a valid row; the body goes as sent', () => {
    const row = created();
    expect(spendRequestSchema.parse(row)).toEqual(row);
    expect(row).toMatchObject({
      id: id(1), user_id: ACTOR.user_id, requested_by: ACTOR.user_id, business_id: ACTOR.business_id, type: 'GENERAL_EXPENSE',
      status: 'PENDING_APPROVAL', submitted_at: AT, amount: { amount: 50_000, currency: 'USD' }, interval: 'TOTAL', description: 'Offsite budget',
      vendor_id: null, line_items: [], document_ids: [], approval_id: null, card_id: null, purchase_order_id: null, canceled_at: null, created_at: AT,
      change_seq: 0, deleted: false,
    });
    const args = createArgs();
    expect(spendRequestCreate.entityIds(args)).toEqual([id(1)]);
    expect(spendRequestCreate.request(args)).toEqual({ body: args });
  });

  it('submit false keeps a DRAFT; for_user_id makes it theirs, asked by the actor; a budget room request names its allocation', () => {
    expect(created({ submit: false })).toMatchObject({ status: 'DRAFT', submitted_at: null });
    expect(created({ for_user_id: id(3) })).toMatchObject({ user_id: id(3), requested_by: ACTOR.user_id });
    expect(created({ spend_allocation_id: id(40), interval: 'MONTHLY' })).toMatchObject({ spend_allocation_id: id(40), interval: 'MONTHLY', status: 'PENDING_APPROVAL' });
  });

  it('a product request: lines with ids derived from the request and position', () => {
    const row = created(purchase());
    expect(row.status).toBe('PENDING_APPROVAL');
    expect(row.line_items).toEqual([
      { id: lineIdOf(id(1), 0), description: 'Monitor', quantity: 5, unit_price: 2_000 },
      { id: lineIdOf(id(1), 1), description: 'Cable', quantity: 1, unit_price: 1_500 },
    ]);
    expect(spendRequestSchema.parse(row)).toEqual(row);
  });

  it('what spendRequestErrors refuses is not shown waiting for approval: it stays a DRAFT', () => {
    expect(created(purchase({ vendor_id: undefined })).status).toBe('DRAFT');
    expect(created(purchase({ amount: { amount: 1, currency: 'USD' } })).status).toBe('DRAFT');
    expect(created({ line_items: [{ description: 'x', quantity: 1, unit_price: 1 }] }).status).toBe('DRAFT');
    expect(created({ type: 'PHYSICAL_CARD', spend_allocation_id: id(40) }).status).toBe('DRAFT');
    // Needed by a day already over everywhere (UTC−12 at the write) is refused; today somewhere is not.
    expect(created({ needed_by: '2026-11-28' }).status).toBe('DRAFT');
    expect(created({ needed_by: '2026-11-29' }).status).toBe('PENDING_APPROVAL');
  });

  it('a row the server already has (change_seq) is left as the server has it', () => {
    const server = { ...created(), status: 'APPROVED' as const, change_seq: 12 };
    expect(spendRequestCreate.apply(server, createArgs())).toBe(server);
  });
});

describe('spendRequest.update', () => {
  const draft = () => created({ ...purchase(), submit: false });

  it('a draft takes the patch (lines replace all, amount follows what was sent); the call is PATCH with the patch', () => {
    const args = spendRequestUpdate.args.parse({ spend_request_id: id(1), patch: { description: 'Monitors', line_items: [{ description: 'Monitor', quantity: 2, unit_price: 2_000 }], amount: { amount: 4_000, currency: 'USD' } } });
    const row = spendRequestUpdate.apply(draft(), args);
    expect(row).toMatchObject({ status: 'DRAFT', description: 'Monitors', amount: { amount: 4_000 }, line_items: [{ id: lineIdOf(id(1), 0), quantity: 2 }] });
    expect(spendRequestUpdate.request(args)).toEqual({ params: { spend_request_uuid: id(1) }, body: args.patch });
    expect(spendRequestUpdate.entityIds(args)).toEqual([id(1)]);
  });

  it('submit: true → PENDING_APPROVAL at the write; refused whole when the request has field errors', () => {
    const later = { ...draft(), updated_at: '2026-11-30T09:00:00.000Z' };
    expect(applySpendRequestPatch(later, { submit: true })).toMatchObject({ status: 'PENDING_APPROVAL', submitted_at: '2026-11-30T09:00:00.000Z' });
    const bad = { amount: { amount: 1, currency: 'USD' }, submit: true as const };
    expect(applySpendRequestPatch(later, bad)).toBe(later);
  });

  it('only a DRAFT is edited or submitted: a pending request is left as it is (moot when refused)', () => {
    const pending = created();
    expect(applySpendRequestPatch(pending, { description: 'More' })).toBe(pending);
    expect(applySpendRequestPatch(pending, { submit: true })).toBe(pending);
  });
});

describe('spendRequest.cancel and .delete', () => {
  it('cancel: a draft or pending request is CANCELED at the write; decided ones stay; its open approval is canceled too', () => {
    const later = { ...created(), updated_at: '2026-11-30T09:00:00.000Z' };
    expect(spendRequestCancel.apply(later, { spend_request_id: id(1) })).toMatchObject({ status: 'CANCELED', canceled_at: '2026-11-30T09:00:00.000Z' });
    expect(applySpendRequestCancel(created({ submit: false })).status).toBe('CANCELED');
    const approved = { ...created(), status: 'APPROVED' as const };
    expect(applySpendRequestCancel(approved)).toBe(approved);
    expect(spendRequestCancel.request({ spend_request_id: id(1) })).toEqual({ params: { spend_request_uuid: id(1) } });
    const approval = { status: 'PENDING' };
    expect(spendRequestCancel.also!.approvals!.apply(approval as never, { spend_request_id: id(1) })).toMatchObject({ status: 'CANCELED' });
    const matching: unknown[] = [];
    spendRequestCancel.also!.approvals!.ids({ spend_request_id: id(1) }, { get: () => undefined, matching: (c, f) => (matching.push([c, f]), [id(50)]) });
    expect(matching).toEqual([['approvals', { object_ids: [id(1)], status: ['PENDING'] }]]);
  });

  it('delete: DELETE with the id in the body; a tombstone only for what never took effect', () => {
    expect(spendRequestDelete.request({ spend_request_id: id(1) })).toEqual({ body: { spend_request_uuid: id(1) } });
    expect(spendRequestDelete.apply(created({ submit: false }), { spend_request_id: id(1) }).deleted).toBe(true);
    const canceled = applySpendRequestCancel(created());
    expect(spendRequestDelete.apply(canceled, { spend_request_id: id(1) }).deleted).toBe(true);
    const pending = created();
    expect(spendRequestDelete.apply(pending, { spend_request_id: id(1) })).toBe(pending);
  });
});
