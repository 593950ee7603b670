import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { amountText, emptyLine, type BillLineValues } from './bill-form.ts';

/*
 * Issue 28, the bill form's purchase order, pure (tested in bill-po-lines.test.ts): which POs a
 * bill may name and the lines a PO fills a blank bill with.
 */

/** The vendor's purchase orders a bill may name: not closed (the one already named stays offered), newest first. */
export function billablePurchaseOrders(pos: readonly PurchaseOrder[], vendorId: string, currentId: string): PurchaseOrder[] {
  return pos
    .filter((p) => p.id === currentId || (p.vendor_id === vendorId && p.status !== 'CLOSED'))
    .sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
}

/** A PO's lines as bill lines: each what is received and not yet billed (at least 1), at the PO's unit price. */
export function linesFromPurchaseOrder(po: Pick<PurchaseOrder, 'lines' | 'currency'>, key: () => string): BillLineValues[] {
  return po.lines.map((l) => {
    const quantity = Math.max(1, l.received_quantity - l.billed_quantity);
    return {
      ...emptyLine(key()), description: l.description, po_line_id: l.id, quantity: String(quantity),
      unit_price: amountText(l.unit_price, po.currency), amount: amountText(quantity * l.unit_price, po.currency),
    };
  });
}

