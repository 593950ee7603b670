import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand, type CommandCheckContext } from './define-command.ts';
import { createWithId } from './row-commands.ts';
import { createItemReceipt, itemReceiptCreateSchema, type ItemReceiptCreate } from '../api/calls-procurement.ts';
import type { PurchaseOrder } from '../entities/purchase-order.ts';
import { applyItemReceipt, checkItemReceipt } from '../procurement-rules.ts';

/**
 * "Receive items" (issue 28): an item receipt recorded offline against a purchase order and sent
 * once. Purchase orders are reference data (`refs`), shown with this command applied like any
 * queried row (workers/rebase.ts): the lines' received quantities and the PO's status follow at
 * once (`applyItemReceipt`), and the receipt joins the PO's `receipts`. A receipt the rules refuse
 * (beyond what is still to arrive, a closed PO, a line not on the PO: `checkItemReceipt`) is refused
 * before it is queued against the PO as shown (earlier receipts still queued count), and leaves the
 * PO as it is should it reach `apply` anyway (the PO changed meanwhile): the server refuses it by name.
 */

/** The args: the call's body with the client id required, and who received (args only: never sent). */
const itemReceiptArgs = createWithId(itemReceiptCreateSchema).args.extend({
  /** The signed-in person, for the receipt shown until the server's arrives (default: the PO's requester). */
  received_by: z.uuid().optional(),
});
type ItemReceiptArgs = z.output<typeof itemReceiptArgs>;

const withoutReceivedBy = ({ received_by: _by, ...body }: ItemReceiptArgs): ItemReceiptCreate & { id: string } => body;

/**
 * The PO after the receipt, as the server writes it: refused (unchanged) when `checkItemReceipt`
 * refuses; else the received quantities and status (`applyItemReceipt`) and the receipt appended
 * to `receipts` (once: a receipt the PO already lists is the server's, already counted).
 */
export function applyItemReceiptCreate(po: PurchaseOrder, a: ItemReceiptArgs): PurchaseOrder {
  if (po.receipts.some((r) => r.id === a.id)) return po;
  if (!checkItemReceipt(po, a.lines).ok) return po;
  const received = applyItemReceipt(po, a.lines);
  return produce(received, (d) => {
    d.receipts.push({
      id: a.id, purchase_order_id: po.id, lines: a.lines.map((l) => ({ po_line_id: l.po_line_id, quantity: l.quantity })),
      received_at: a.received_at, received_by: a.received_by ?? po.created_by, document_ids: [], created_at: a.received_at,
    });
  });
}

/** The local refusal: the PO must be on this device, and the receipt fit what is still to arrive there (PROCUREMENT_7010–7012). */
function checkReceipt(a: ItemReceiptArgs, mirror: CommandCheckContext) {
  if (!mirror.has(a.purchase_order_id)) return 'REQUEST_7004' as const;
  const po = mirror.get?.(a.purchase_order_id) as Pick<PurchaseOrder, 'status' | 'lines'> | undefined;
  if (!po) return null;
  const check = checkItemReceipt(po, a.lines);
  return check.ok ? null : check.code;
}

export const itemReceiptCreate = defineCommand({
  name: 'itemReceipt.create',
  args: itemReceiptArgs,
  collection: 'purchase_orders',
  // The PO is the row it changes: receipts on one PO go in order.
  entityIds: (a) => [a.purchase_order_id],
  call: createItemReceipt,
  // The id goes with the body: the server records the receipt under it (a repeat answers the stored one).
  request: (a) => ({ body: withoutReceivedBy(a) }),
  apply: (po, a) => applyItemReceiptCreate(po, a),
  check: checkReceipt,
  // The answer is `{item_receipt, purchase_order, change_seq}`: the PO is not the answer's top level,
  // so the receipt stays applied until the feed brings the PO at that seq.
  confirm: 'change_seq',
});
