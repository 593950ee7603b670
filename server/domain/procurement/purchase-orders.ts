import type { PurchaseOrder, PurchaseOrderStatus } from '../../../schema/entities/purchase-order.ts';
import { mayManageBills } from '../../../schema/bill-rules.ts';
import type { pageQuerySchema } from '../../../schema/paging.ts';
import type { z } from 'zod';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import { allocateSeqs, announceChange } from '../../db/change-seq.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { refreshBillMatches } from './bill-match-store.ts';
import { listCollection } from '../reference-lists.ts';

/**
 * Purchase orders (issue 28) in storage: reference data (`refs`, visibility `bill_pay`: bill
 * managers see every PO, anyone else the POs they requested, `created_by`). The PO rows are created
 * by the approval of a PRODUCT_OR_SERVICE spend request (domain/procurement, h-reqsrv); here they
 * are read, closed, and re-stamped whenever what their doc reads changes (receipts here; bills by
 * migration 047's triggers). A PO the caller may not see answers 404 like another business's.
 */
export const PO_DOC = COLLECTIONS.purchase_orders.docSql;
const NOT_FOUND = 'This purchase order was not found.';

/** The `bill_pay` rule on POs of alias `r` for `user` (pushes its parameter). */
function visibleClause(user: ActingUser, params: unknown[]): string {
  if (mayManageBills(user)) return '';
  return ` AND r.created_by = $${params.push(user.id)}::uuid`;
}

/**
 * A live PO of the business the user may see (bill managers: any; others: their own), as its doc;
 * `lock` takes the row FOR UPDATE (after the business row: writers call this inside writeMirrored).
 */
export async function findPurchaseOrder(db: Queryable, user: ActingUser, id: string, lock = false): Promise<PurchaseOrder> {
  const params: unknown[] = [user.business_id, id];
  const where = `r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleClause(user, params)}`;
  const rows = await db.query<{ doc: PurchaseOrder }>(
    // FOR UPDATE cannot sit on a query with aggregates: lock the row first, then build the doc.
    lock
      ? `WITH locked AS (SELECT r.id FROM purchase_orders r WHERE ${where} FOR UPDATE)
         SELECT ${PO_DOC} AS doc FROM purchase_orders r JOIN locked USING (id)`
      : `SELECT ${PO_DOC} AS doc FROM purchase_orders r WHERE ${where}`,
    params,
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', NOT_FOUND);
  return rows[0].doc;
}

type ListQuery = z.output<typeof pageQuerySchema> & { status?: PurchaseOrderStatus; vendor_id?: string };

/** One page of the POs the user may see, by PO number, narrowed by status and vendor. */
export function listPurchaseOrders(db: Queryable, user: ActingUser, q: ListQuery) {
  return listCollection(db, user, 'purchase_orders', q, (params) => {
    let sql = '';
    if (q.status) sql += ` AND r.status = $${params.push(q.status)}`;
    if (q.vendor_id) sql += ` AND r.vendor_id = $${params.push(q.vendor_id)}::uuid`;
    return sql;
  });
}

/**
 * The one hook after anything that changes what a PO's doc reads (a receipt written or deleted,
 * the PO closed): re-stamps the PO with a fresh seq, announced on commit, and answers it. Callers
 * hold the business row's lock already (they run inside writeMirrored), so taking another seq
 * keeps the lock order. The three-way match's re-check of the bills naming the PO is wired in here.
 */
export async function afterPurchaseOrderChange(tx: Queryable, businessId: string, purchaseOrderId: string): Promise<number> {
  await refreshBillMatches(tx, businessId, purchaseOrderId);
  const range = await allocateSeqs(tx, businessId, 1);
  if (!range) throw new ApiError('REQUEST_7004');
  await tx.query(
    'UPDATE purchase_orders SET change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2',
    [businessId, purchaseOrderId, range.last],
  );
  await announceChange(tx, businessId, range.last);
  return range.last;
}

/** Bill managers close a PO by hand: CLOSED with closed_at; closing a closed PO is 409 PROCUREMENT_7011. */
export async function closePurchaseOrder(tx: Queryable, user: ActingUser, id: string, now: Date) {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const po = await findPurchaseOrder(tx, user, id, true);
    if (po.status === 'CLOSED') throw new ApiError('PROCUREMENT_7011', 'This purchase order is closed already.');
    await tx.query(
      `UPDATE purchase_orders SET status = 'CLOSED', closed_at = $3, change_seq = $4, updated_at = $3 WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, now.toISOString(), seqs.last],
    );
    const changeSeq = await afterPurchaseOrderChange(tx, user.business_id, id);
    return { ...(await findPurchaseOrder(tx, user, id)), change_seq: changeSeq };
  });
}
