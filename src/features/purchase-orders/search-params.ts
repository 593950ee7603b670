import { z } from 'zod';
import type { PurchaseOrderStatus } from '../../../schema/entities/purchase-order.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The statuses, written out so the first load (the router imports this file) does not carry the
 * purchase order entity; `satisfies` keeps them the entity's.
 */
const STATUSES = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CLOSED'] as const satisfies readonly PurchaseOrderStatus[];

/** /purchase-orders' URL state, flat strings (§5): the search (PO number, vendor) and the status filter. */
export const purchaseOrdersSearchSchema = z.object({
  q: z.string().max(200).optional(),
  status: z.enum(STATUSES).optional(),
});
export type PurchaseOrdersSearch = z.infer<typeof purchaseOrdersSearchSchema>;
export const parsePurchaseOrdersSearch = (raw: Record<string, unknown>): PurchaseOrdersSearch => parseEachParam(purchaseOrdersSearchSchema, raw);
