import { useMemo } from 'react';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import { useReferenceData } from '../../../lib/reference-data.ts';

/**
 * What the Recurring, Templates and Vendor credits pages share: the connection, the business's
 * vendors (names, and the active ones to choose from) and the states of a server-only list
 * (loading, offline, refused) in the same words on every page.
 */
export function useExtrasPage() {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const vendors = reference.data.vendors;
  const vendorName = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return (id: string) => names.get(id) ?? 'Unknown vendor';
  }, [vendors]);
  const vendorOptions = useMemo(
    () => vendors.filter((v) => v.status === 'ACTIVE').map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [vendors],
  );
  return { client, online, reference, currency, vendorName, vendorOptions };
}

/** The list states and the delete confirmation moved to src/components (accounting shows them too). */
export { ListStatus, type ListStatusProps } from '../../../components/online-list-status.tsx';
export { DeleteDialog, type DeleteDialogProps } from '../../../components/confirm-dialog.tsx';
