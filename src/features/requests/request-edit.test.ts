import { describe, expect, it } from 'vitest';
import { spendRequestSchema, type SpendRequest } from '../../../schema/entities/spend-request.ts';
import { requestPatch, requestValuesOf } from './request-edit.ts';
import type { RequestValues } from './request-form.ts';

const ID = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const ME = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER = '2c3d4e5f-6071-4b8c-9d0e-1f2a3b4c5d6e';
const VENDOR = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const BUDGET = '7d6c5b4a-3f2e-4d1c-8b0a-9f8e7d6c5b4a';
const TODAY = '2026-11-29';
const AT = '2026-11-28T10:00:00.000Z';

const draft = (over: Partial<SpendRequest> = {}): SpendRequest => spendRequestSchema.parse({
  id: ID, user_id: ME, requested_by: ME, type: 'GENERAL_EXPENSE', status: 'DRAFT', amount: { amount: 50_000, currency: 'USD' },
  interval: 'MONTHLY', description: 'Offsite snacks', vendor_id: null, line_items: [], needed_by: null, spend_allocation_id: null,
  document_ids: [], approval_id: null, rejection_reason: null, card_id: null, purchase_order_id: null, submitted_at: null,
  decided_at: null, fulfilled_at: null, canceled_at: null, created_at: AT, business_id: ID, change_seq: 3, updated_at: AT, deleted: false,
  ...over,
});

const purchase = draft({
  type: 'PRODUCT_OR_SERVICE', amount: { amount: 76_000, currency: 'USD' }, interval: 'TOTAL', vendor_id: VENDOR, needed_by: '2026-12-15',
  line_items: [
    { id: 'a0000000-0000-4000-8000-000000000001', description: 'Chairs', quantity: 3, unit_price: 12_000 },
    { id: 'a0000000-0000-4000-8000-000000000002', description: 'Desk', quantity: 1, unit_price: 40_000 },
  ],
});

describe('requestValuesOf: a draft as the form shows it', () => {
  it('a budget: its amount as typed text, interval, budget; the viewer’s own request is "Myself"', () => {
    expect(requestValuesOf(draft({ spend_allocation_id: BUDGET }), ME)).toEqual({
      type: 'GENERAL_EXPENSE', amount: '500.00', currency: 'USD', interval: 'MONTHLY', description: 'Offsite snacks', vendor_id: '', lines: [],
      needed_by: '', for_user_id: '', spend_allocation_id: BUDGET,
    });
  });

  it('a purchase: the lines keyed by their ids with prices as text, the amount left to the lines; made for someone else', () => {
    const v = requestValuesOf({ ...purchase, user_id: OTHER }, ME);
    expect(v).toMatchObject({ type: 'PRODUCT_OR_SERVICE', amount: '', vendor_id: VENDOR, needed_by: '2026-12-15', for_user_id: OTHER });
    expect(v.lines).toEqual([
      { key: 'a0000000-0000-4000-8000-000000000001', description: 'Chairs', quantity: '3', unit_price: '120.00' },
      { key: 'a0000000-0000-4000-8000-000000000002', description: 'Desk', quantity: '1', unit_price: '400.00' },
    ]);
  });

  it('a currency without cents stays whole', () => {
    expect(requestValuesOf(draft({ amount: { amount: 5_000, currency: 'JPY' } }), ME)).toMatchObject({ amount: '5000', currency: 'JPY' });
  });
});

describe('requestPatch: the form back to a draft’s patch', () => {
  const edit = (row: SpendRequest, change: Partial<RequestValues>) => ({ ...requestValuesOf(row, ME), ...change });

  it('unchanged: nothing to send; submitting unchanged sends only submit', () => {
    expect(requestPatch(requestValuesOf(draft(), ME), draft(), false, TODAY)).toEqual({ ok: true, patch: {}, changed: false });
    expect(requestPatch(requestValuesOf(purchase, ME), purchase, true, TODAY)).toEqual({ ok: true, patch: { submit: true }, changed: false });
  });

  it('sends only the fields changed: amount, interval, budget, description, date', () => {
    const r = requestPatch(edit(draft(), { amount: '650', interval: 'TOTAL', spend_allocation_id: BUDGET, description: 'Offsite snacks and drinks', needed_by: '2026-12-01' }), draft(), false, TODAY);
    expect(r).toEqual({
      ok: true, changed: true,
      patch: { amount: { amount: 65_000, currency: 'USD' }, interval: 'TOTAL', spend_allocation_id: BUDGET, description: 'Offsite snacks and drinks', needed_by: '2026-12-01' },
    });
    // A date cleared is sent as null.
    expect(requestPatch(edit(purchase, { needed_by: '' }), purchase, false, TODAY)).toEqual({ ok: true, changed: true, patch: { needed_by: null } });
  });

  it('a purchase: a changed line sends every line (the server replaces them) and the new total; submit goes with it', () => {
    const v = edit(purchase, {});
    v.lines = [v.lines[0]!, { ...v.lines[1]!, quantity: '2' }];
    expect(requestPatch(v, purchase, true, TODAY)).toEqual({
      ok: true, changed: true,
      patch: {
        amount: { amount: 116_000, currency: 'USD' },
        line_items: [{ description: 'Chairs', quantity: 3, unit_price: 12_000 }, { description: 'Desk', quantity: 2, unit_price: 40_000 }],
        submit: true,
      },
    });
    expect(requestPatch(edit(purchase, { vendor_id: '' }), purchase, false, TODAY)).toMatchObject({ ok: false, errors: { vendor_id: expect.any(String) } });
  });

  it('refuses with the fields’ words what a new request would refuse (the same rules)', () => {
    const r = requestPatch(edit(draft(), { amount: '', description: ' ', needed_by: '2026-11-01' }), draft(), false, TODAY);
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.errors).sort()).toEqual(['amount', 'description', 'needed_by']);
  });
});
