import { describe, expect, it } from 'vitest';
import { purchaseOrderSchema, type PurchaseOrder } from '../entities/purchase-order.ts';
import { ERROR_CATALOGUE } from '../errors.ts';
import { itemReceiptCreate } from './item-receipt.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const PO = id(1);
const LINE = id(11);
const OTHER_LINE = id(12);
const AT = '2026-11-29T12:00:00.000Z';

const purchaseOrder = (over: Partial<PurchaseOrder> = {}): PurchaseOrder => ({
  id: PO, po_number: 'PO-000123', spend_request_id: id(2), vendor_id: id(3), currency: 'USD', amount: 5 * 2_000 + 1_500,
  lines: [
    { id: LINE, description: 'Monitor', quantity: 5, unit_price: 2_000, received_quantity: 0, billed_quantity: 0 },
    { id: OTHER_LINE, description: 'Cable', quantity: 1, unit_price: 1_500, received_quantity: 0, billed_quantity: 0 },
  ],
  status: 'OPEN', receipts: [], bill_ids: [], created_by: id(4), closed_at: null, created_at: AT,
  business_id: id(9), change_seq: 7, updated_at: AT, deleted: false, ...over,
});

const receive = (n: number, over: Record<string, unknown> = {}) => itemReceiptCreate.args.parse({
  id: id(20 + n), purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: n }], received_at: AT, received_by: id(5), ...over,
});
const has = (po: PurchaseOrder) => ({ has: (x: string) => x === po.id, get: (x: string) => (x === po.id ? po : undefined) });

describe('itemReceipt.create', () => {
  it('receiving 3 of 5: PARTIALLY_RECEIVED at once, the receipt listed on the PO (a valid row); the body goes without received_by', () => {
    const args = receive(3);
    const po = itemReceiptCreate.apply(purchaseOrder(), args);
    expect(purchaseOrderSchema.parse(po)).toEqual(po);
    expect(po.status).toBe('PARTIALLY_RECEIVED');
    expect(po.lines.map((l) => l.received_quantity)).toEqual([3, 0]);
    expect(po.receipts).toEqual([{
      id: id(23), purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 3 }], received_at: AT, received_by: id(5), document_ids: [], created_at: AT,
    }]);
    expect(itemReceiptCreate.entityIds(args)).toEqual([PO]);
    expect(itemReceiptCreate.request(args)).toEqual({ body: { id: id(23), purchase_order_id: PO, lines: [{ po_line_id: LINE, quantity: 3 }], received_at: AT } });
    expect(itemReceiptCreate.confirm).toBe('change_seq');
  });

  it('the rest arrives: RECEIVED when every line is in full; a receipt already on the PO is not counted twice', () => {
    const partly = itemReceiptCreate.apply(purchaseOrder(), receive(3));
    const rest = receive(2, { lines: [{ po_line_id: LINE, quantity: 2 }, { po_line_id: OTHER_LINE, quantity: 1 }] });
    const full = itemReceiptCreate.apply(partly, rest);
    expect(full.status).toBe('RECEIVED');
    expect(full.receipts.map((r) => r.id)).toEqual([id(23), id(22)]);
    expect(itemReceiptCreate.apply(full, rest)).toBe(full);
    expect(itemReceiptCreate.apply(purchaseOrder(), receive(1, { received_by: undefined })).receipts[0]!.received_by).toBe(id(4));
  });

  it('beyond what is still to arrive is refused locally with PROCUREMENT_7010 (earlier receipts counted); the PO stays as it is', () => {
    const partly = itemReceiptCreate.apply(purchaseOrder(), receive(3));
    expect(itemReceiptCreate.check!(receive(3), has(partly))).toBe('PROCUREMENT_7010');
    expect(ERROR_CATALOGUE.PROCUREMENT_7010.message).toMatch(/past the quantity ordered/);
    expect(itemReceiptCreate.check!(receive(2), has(partly))).toBeNull();
    expect(itemReceiptCreate.apply(partly, receive(3))).toBe(partly);
    expect(itemReceiptCreate.apply(purchaseOrder(), receive(6))).toMatchObject({ status: 'OPEN', receipts: [] });
  });

  it('a closed PO, another PO’s line, a line twice, a PO not on the device: refused before queueing', () => {
    expect(itemReceiptCreate.check!(receive(1), has(purchaseOrder({ status: 'CLOSED' })))).toBe('PROCUREMENT_7011');
    expect(itemReceiptCreate.check!(receive(1, { lines: [{ po_line_id: id(99), quantity: 1 }] }), has(purchaseOrder()))).toBe('PROCUREMENT_7012');
    expect(itemReceiptCreate.check!(receive(1, { lines: [{ po_line_id: LINE, quantity: 1 }, { po_line_id: LINE, quantity: 1 }] }), has(purchaseOrder()))).toBe('PROCUREMENT_7012');
    expect(itemReceiptCreate.check!(receive(1, { purchase_order_id: id(77) }), has(purchaseOrder()))).toBe('REQUEST_7004');
    const closed = purchaseOrder({ status: 'CLOSED' });
    expect(itemReceiptCreate.apply(closed, receive(1))).toBe(closed);
  });
});
