import { randomUUID } from 'node:crypto';
import { formatPoNumber, type PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS } from '../collections.ts';

/**
 * Issue 28: the purchase order an approved PRODUCT_OR_SERVICE request becomes, created in the
 * approving transaction (fulfil.ts). Numbers are per business, PO-000001 upwards without gaps:
 * the business's `purchase_order_counters` row is taken FOR UPDATE (created at 0 the first time),
 * so two approvals racing in two processes number one after the other, and a transaction that
 * rolls back gives its number back with it. `purchase_orders.spend_request_id` is unique: one PO
 * per request whatever races.
 */

const PO_DOC = COLLECTIONS.purchase_orders.docSql;

/** The business's next PO number, its counter row locked until the caller's transaction ends. */
async function nextPoNumber(tx: Queryable, businessId: string): Promise<string> {
  await tx.query('INSERT INTO purchase_order_counters (business_id, last_number) VALUES ($1, 0) ON CONFLICT (business_id) DO NOTHING', [businessId]);
  const [counter] = await tx.query<{ last_number: number | string }>(
    'SELECT last_number FROM purchase_order_counters WHERE business_id = $1 FOR UPDATE', [businessId],
  );
  const next = Number(counter!.last_number) + 1;
  await tx.query('UPDATE purchase_order_counters SET last_number = $2 WHERE business_id = $1', [businessId, next]);
  return formatPoNumber(next);
}

/**
 * The request's PO: its vendor and currency, its lines copied with their ids (a line id of the
 * request is the PO line's id), OPEN, created by the person the request is for. `seq` is a
 * change seq the caller reserved.
 */
export async function createPurchaseOrder(
  tx: Queryable, request: Pick<SpendRequest, 'id' | 'business_id' | 'user_id' | 'vendor_id' | 'amount' | 'line_items'>, seq: number, at: string,
): Promise<PurchaseOrder> {
  const id = randomUUID();
  const poNumber = await nextPoNumber(tx, request.business_id);
  await tx.query(
    `INSERT INTO purchase_orders (id, business_id, po_number, spend_request_id, vendor_id, currency, status, created_by, created_at, change_seq, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'OPEN', $7, $8, $9, $8)`,
    [id, request.business_id, poNumber, request.id, request.vendor_id, request.amount.currency, request.user_id, at, seq],
  );
  await tx.query(
    `INSERT INTO purchase_order_lines (id, purchase_order_id, position, description, quantity, unit_price)
     SELECT (x.e ->> 'id')::uuid, $1, x.o - 1, x.e ->> 'description', (x.e ->> 'quantity')::bigint, (x.e ->> 'unit_price')::bigint
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(e, o)`,
    [id, JSON.stringify(request.line_items)],
  );
  const [row] = await tx.query<{ doc: PurchaseOrder }>(`SELECT ${PO_DOC} AS doc FROM purchase_orders r WHERE r.id = $1`, [id]);
  return row!.doc;
}
