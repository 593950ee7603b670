import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';

/**
 * Whether the viewer sees any purchase order (the mirror holds only those they may see: their own,
 * unless they manage bills): the nav shows "Purchase orders" to a requester whose request became a
 * PO. Re-read when reference data changes.
 */
export function useHasPurchaseOrders(): boolean {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const [has, setHas] = useState(false);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => live && setHas(d.purchase_orders.length > 0));
    return () => {
      live = false;
    };
  }, [client, version]);
  return has;
}
