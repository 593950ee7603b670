import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';

/**
 * Whether the viewer sees at least one budget (reference data, offline too): the nav shows
 * Budgets to them then, as it does to everyone who may create one. Kept light: it is the shell's.
 */
export function useHasBudgets(): boolean {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const [has, setHas] = useState(false);
  useEffect(() => {
    let live = true;
    void client.referenceData().then(
      (d) => {
        if (live) setHas(d.spend_allocations.some((a) => !a.archived));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, version]);
  return has;
}
