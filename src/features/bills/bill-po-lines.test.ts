import { describe, expect, it } from 'vitest';
import { purchaseOrderSchema, type PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { billFields, createBillInput, emptyBillValues, poLineAmount } from './bill-form.ts';
import { billablePurchaseOrders, linesFromPurchaseOrder } from './bill-po-lines.ts';

const VENDOR = '55555555-5555-4555-8555-555555555555';
const OTHER = '77777777-7777-4777-8777-777777777777';
const LINE = '11111111-1111-4111-8111-111111111111';

/** Through the entity's schema: a fixture it refuses fails here first. */
const po = (id: string, over: Partial<PurchaseOrder> = {}): PurchaseOrder => purchaseOrderSchema.parse({
  id, po_number: 'PO-000001', spend_request_id: id, vendor_id: VENDOR, currency: 'USD', amount: 22_500,
  lines: [{ id: LINE, description: 'Laptop stand', quantity: 5, unit_price: 4_500, received_quantity: 3, billed_quantity: 1 }],
  status: 'OPEN', receipts: [], bill_ids: [], created_by: id, closed_at: null, created_at: '2026-11-01T00:00:00Z',
  business_id: id, change_seq: 1, updated_at: '2026-11-01T00:00:00Z', deleted: false, ...over,
});

describe('poLineAmount', () => {
  it.each([
    ['5', '45.00', '225.00'],
    ['3', '1,250.50', '3751.50'],
    ['', '45.00', null],
    ['1.5', '45.00', null],
    ['2', 'abc', null],
  ])('%s × %s = %s', (q, p, amount) => expect(poLineAmount(q, p, 'USD')).toBe(amount));
});

describe('billablePurchaseOrders', () => {
  const a = po('a0000000-0000-4000-8000-000000000001', { created_at: '2026-11-01T00:00:00Z' });
  const b = po('a0000000-0000-4000-8000-000000000002', { created_at: '2026-11-05T00:00:00Z', po_number: 'PO-000002' });
  const closed = po('a0000000-0000-4000-8000-000000000003', { status: 'CLOSED' });
  const others = po('a0000000-0000-4000-8000-000000000004', { vendor_id: OTHER });
  it('offers the vendor’s POs that are not closed, newest first', () => {
    expect(billablePurchaseOrders([a, b, closed, others], VENDOR, '').map((p) => p.id)).toEqual([b.id, a.id]);
  });
  it('keeps the PO the bill already names', () => {
    expect(billablePurchaseOrders([a, closed], VENDOR, closed.id).map((p) => p.id)).toContain(closed.id);
  });
});

describe('a bill naming its PO', () => {
  it('fills the lines with what was received and not yet billed, at the PO’s price', () => {
    let n = 0;
    const [line] = linesFromPurchaseOrder(po('a0000000-0000-4000-8000-000000000001'), () => `k${n++}`);
    expect(line).toMatchObject({ key: 'k0', description: 'Laptop stand', po_line_id: LINE, quantity: '2', unit_price: '45.00', amount: '90.00' });
  });

  it('sends the PO and each line’s PO line, quantity and unit price', () => {
    const poId = 'a0000000-0000-4000-8000-000000000001';
    const lines = linesFromPurchaseOrder(po(poId), () => 'k');
    const values = { ...emptyBillValues('USD', '2026-11-29'), vendor_id: VENDOR, invoice_number: 'INV-1', purchase_order_id: poId, lines };
    expect(billFields(values)).toMatchObject({ purchase_order_id: poId, line_items: [{ po_line_id: LINE, quantity: 2, unit_price: 4_500, amount: 9_000 }] });
    const built = createBillInput(values, { id: 'b0000000-0000-4000-8000-000000000001', submit: false });
    expect(built.ok).toBe(true);
  });

  it('refuses an amount that is not quantity × unit price', () => {
    const poId = 'a0000000-0000-4000-8000-000000000001';
    const [line] = linesFromPurchaseOrder(po(poId), () => 'k');
    const values = { ...emptyBillValues('USD', '2026-11-29'), vendor_id: VENDOR, invoice_number: 'INV-1', purchase_order_id: poId, lines: [{ ...line!, amount: '100.00' }] };
    const built = createBillInput(values, { id: 'b0000000-0000-4000-8000-000000000001', submit: false });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.errors['line_items.0.amount']).toMatch(/quantity × the unit price/);
  });
});
