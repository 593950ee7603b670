import { useMemo } from 'react';
import type { ReferenceData } from '../data-access/types.ts';

/**
 * The business's vendors as a page names and offers them: `vendorName(id)` (`unknown` for an id
 * not among them) and the active ones as choices, by name.
 */
export function useVendorChoices(vendors: ReferenceData['vendors'], unknown: string) {
  const vendorName = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return (id: string) => names.get(id) ?? unknown;
  }, [vendors, unknown]);
  const vendorOptions = useMemo(
    () => vendors.filter((v) => v.status === 'ACTIVE').map((v) => ({ value: v.id, label: v.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [vendors],
  );
  return { vendorName, vendorOptions };
}
