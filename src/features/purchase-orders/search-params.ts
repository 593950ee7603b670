import { z } from 'zod';
import { purchaseOrderStatusSchema } from '../../../schema/entities/purchase-order.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/** /purchase-orders' URL state, flat strings (§5): the search (PO number, vendor) and the status filter. */
export const purchaseOrdersSearchSchema = z.object({
  q: z.string().max(200).optional(),
  status: purchaseOrderStatusSchema.optional(),
});
export type PurchaseOrdersSearch = z.infer<typeof purchaseOrdersSearchSchema>;
export const parsePurchaseOrdersSearch = (raw: Record<string, unknown>): PurchaseOrdersSearch => parseEachParam(purchaseOrdersSearchSchema, raw);
