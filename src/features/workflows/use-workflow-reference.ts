import { useMemo } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { currencyChoices } from '../../lib/currency-choices.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import type { PickerOptions } from './rule-editor.tsx';
import type { WorkflowNames } from './workflow-text.ts';

/** The pickers' choices and the names of ids, from the mirror's reference data (works offline). */
export function useWorkflowReference(): { currency: string; options: PickerOptions; names: WorkflowNames } {
  const client = useDataClient();
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const reference = useReferenceData(client, referenceVersion);
  return useMemo(() => {
    const vendors = new Map(reference.data.vendors.map((v) => [v.id, v.name]));
    return {
      currency,
      options: {
        users: reference.options.users,
        departments: reference.options.departments,
        vendors: [...vendors].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label)),
        glAccounts: reference.options.glAccounts,
        locations: reference.options.locations,
        currencies: currencyChoices(currency),
      },
      names: {
        user: reference.names.user, department: (x) => reference.names.department(x), vendor: (x) => vendors.get(x) ?? '',
        glAccount: (x) => reference.names.glAccount(x), location: (x) => reference.names.location(x),
      },
    };
  }, [reference, currency]);
}
