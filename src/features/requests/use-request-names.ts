import { useMemo } from 'react';
import type { DataClient } from '../../data-access/types.ts';
import { useReferenceData, type ReferenceView } from '../../lib/reference-data.ts';
import type { RequestListNames } from './requests-list.tsx';

/** The names a request shows (people, vendors, budgets, PO numbers) from reference data, offline too. */
export function requestNames(reference: ReferenceView): RequestListNames {
  const vendors = new Map(reference.data.vendors.map((v) => [v.id, v.name]));
  const budgets = new Map(reference.data.spend_allocations.map((a) => [a.id, a.name]));
  const pos = new Map(reference.data.purchase_orders.map((p) => [p.id, p.po_number]));
  return {
    user: reference.names.user,
    vendor: (id) => vendors.get(id) ?? '',
    budget: (id) => budgets.get(id) ?? '',
    poNumber: (id) => pos.get(id) ?? '',
  };
}

/** Reference data and the request names built from it, once per reference version. */
export function useRequestNames(client: DataClient, version: number): { reference: ReferenceView; names: RequestListNames } {
  const reference = useReferenceData(client, version);
  const names = useMemo(() => requestNames(reference), [reference]);
  return { reference, names };
}
