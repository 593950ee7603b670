import { useMemo } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { useReferenceData } from '../../lib/reference-data.ts';

/**
 * What the Accounting page's sections share: the worker, the connection (accounting is
 * server-only, so offline nothing is read), the reference data that names users, GL accounts,
 * departments and tracking options, and the business's vendors for vendor rules.
 */
export function useAccountingPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const vendors = reference.data.vendors;
  const vendorName = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return (id: string) => names.get(id) ?? '';
  }, [vendors]);
  const vendorOptions = useMemo(
    () => vendors.filter((v) => v.status === 'ACTIVE').map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [vendors],
  );
  return { client, online, reference, vendorName, vendorOptions };
}
