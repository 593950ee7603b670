import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { MAX_LINE_QUANTITY, MAX_REQUEST_LINES } from './spend-request.ts';
import { MAX_CARD_LIMIT } from './card.ts';
import { knownCurrencySchema } from '../money.ts';

/**
 * Issue 28: a purchase order — what an approved PRODUCT_OR_SERVICE spend request ordered from its
 * vendor. Numbered per business (`PO-000123`), sent to the vendor as a PDF. What arrived is
 * recorded by item receipts (several partial ones; never more than ordered, never on a CLOSED PO),
 * kept inside the PO's doc so "Receive items" and the three-way match read offline.
 *
 * Status follows the receipts (schema/procurement-rules.ts `purchaseOrderStatus`): OPEN (nothing
 * received), PARTIALLY_RECEIVED, RECEIVED (every line in full); CLOSED by hand (nothing more is
 * received or billed against it).
 */
export const PURCHASE_ORDER_STATUSES = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CLOSED'] as const;
export const purchaseOrderStatusSchema = z.enum(PURCHASE_ORDER_STATUSES);
export type PurchaseOrderStatus = z.infer<typeof purchaseOrderStatusSchema>;

/** `PO-` and at least six digits, counted per business from 1. */
export const poNumberSchema = z.string().regex(/^PO-\d{6,}$/);
export const formatPoNumber = (n: number) => `PO-${String(n).padStart(6, '0')}`;

export const purchaseOrderLineSchema = z.object({
  id: uuid, // po_line_id
  description: z.string().min(1).max(500),
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY),
  /** Minor units of the PO's currency per unit. */
  unit_price: z.number().int().min(0).max(MAX_CARD_LIMIT),
  /** Sum of the live item receipts' quantities for this line (≤ quantity). */
  received_quantity: z.number().int().min(0),
  /** Sum of the quantities on live bill lines naming this line. */
  billed_quantity: z.number().int().min(0),
});
export type PurchaseOrderLine = z.infer<typeof purchaseOrderLineSchema>;

/** One line of an item receipt: how many of a PO line arrived. */
export const itemReceiptLineSchema = z.object({
  po_line_id: uuid,
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY),
});
export type ItemReceiptLine = z.infer<typeof itemReceiptLineSchema>;

/** An item receipt (`POST /v1/auth/item-receipts`): what arrived, when, recorded by whom, with its documents (packing slips). */
export const itemReceiptSchema = z.object({
  id: uuid,
  purchase_order_id: uuid,
  lines: z.array(itemReceiptLineSchema).min(1).max(MAX_REQUEST_LINES),
  received_at: isoDateTime,
  received_by: uuid,
  document_ids: z.array(uuid),
  created_at: isoDateTime,
});
export type ItemReceipt = z.infer<typeof itemReceiptSchema>;

export const purchaseOrderSchema = z.object({
  id: uuid, // purchase_order_id
  po_number: poNumberSchema,
  spend_request_id: uuid,
  vendor_id: uuid,
  currency: knownCurrencySchema,
  /** The lines' total (quantity × unit price), minor units. */
  amount: z.number().int().min(0),
  lines: z.array(purchaseOrderLineSchema).min(1).max(MAX_REQUEST_LINES),
  status: purchaseOrderStatusSchema,
  /** Live item receipts, oldest first. */
  receipts: z.array(itemReceiptSchema),
  /** Live bills naming this PO. */
  bill_ids: z.array(uuid),
  /** The requester (the spend request's `user_id`): they see their POs; bill managers see all. */
  created_by: uuid,
  closed_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type PurchaseOrder = z.infer<typeof purchaseOrderSchema>;

/** A live bill line naming PO line `l` (bills not deleted, not canceled). */
const LIVE_BILL_LINES = `bill_line_items bl JOIN bills b ON b.id = bl.bill_id AND NOT b.deleted AND b.status <> 'CANCELED'`;

const LINES_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
    'id', l.id, 'description', l.description, 'quantity', l.quantity, 'unit_price', l.unit_price,
    'received_quantity', l.received_quantity,
    'billed_quantity', (SELECT coalesce(sum(bl.quantity), 0) FROM ${LIVE_BILL_LINES} WHERE bl.po_line_id = l.id)
  ) ORDER BY l.position), '[]'::jsonb) FROM purchase_order_lines l WHERE l.purchase_order_id = r.id)`;

const RECEIPTS_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
    'id', ir.id, 'purchase_order_id', ir.purchase_order_id, 'received_at', ll_iso(ir.received_at),
    'received_by', ir.received_by, 'document_ids', to_jsonb(ir.document_ids), 'created_at', ll_iso(ir.created_at),
    'lines', (SELECT coalesce(jsonb_agg(jsonb_build_object('po_line_id', irl.po_line_id, 'quantity', irl.quantity) ORDER BY pl.position), '[]'::jsonb)
                FROM item_receipt_lines irl JOIN purchase_order_lines pl ON pl.id = irl.po_line_id WHERE irl.item_receipt_id = ir.id)
  ) ORDER BY ir.created_at, ir.id), '[]'::jsonb) FROM item_receipts ir WHERE ir.purchase_order_id = r.id AND NOT ir.deleted)`;

/**
 * Reference data (`refs`, no RxDB slot of its own: the 13-collection budget is kept for issues
 * 29–32): a business's POs are hundreds to a few thousand. Visibility `bill_pay`: bill managers
 * see every PO, anyone else those they requested (`created_by`). Table `purchase_orders`
 * (migration 044) with its lines, receipts and the bills naming it read into the doc. A write to a
 * line, a receipt or a bill naming the PO re-stamps the PO (its `change_seq`) so the feed carries it.
 */
export const purchaseOrderEntity = defineReference({
  name: 'purchase_orders', schema: purchaseOrderSchema, visibility: 'bill_pay', searchText: ['po_number'],
  columns: {
    amount: { sql: `(SELECT coalesce(sum(l.quantity * l.unit_price), 0) FROM purchase_order_lines l WHERE l.purchase_order_id = r.id)` },
    lines: { sql: LINES_SQL },
    receipts: { sql: RECEIPTS_SQL },
    bill_ids: {
      sql: `(SELECT coalesce(array_agg(b.id ORDER BY b.created_at, b.id), '{}') FROM bills b
              WHERE b.purchase_order_id = r.id AND NOT b.deleted AND b.status <> 'CANCELED')`,
    },
  },
});
