import { useReferenceAny } from '../../lib/use-reference-any.ts';

/**
 * Whether the viewer sees any purchase order (the mirror holds only those they may see: their own,
 * unless they manage bills): the nav shows "Purchase orders" to a requester whose request became a
 * PO. A count in the worker, asked again when reference data changes.
 */
export const useHasPurchaseOrders = (): boolean => useReferenceAny('purchase_orders');
