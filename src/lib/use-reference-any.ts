import { useEffect, useState } from 'react';
import type { ReferenceCollection } from '../../schema/collections.ts';
import type { ReferenceWhere } from '../../workers/api.ts';
import { useAppState, useDataClient } from '../data-access/data-context.tsx';

/**
 * Whether the mirror holds any row of a reference kind matching `where` (as shown, offline too),
 * asked again on every reference change. The worker answers a count (`referenceCount`), so the
 * shell's nav hooks never copy the whole reference data across the worker boundary. `where` must
 * be stable (a module constant): a new object each render would ask again each render.
 */
export function useReferenceAny<K extends ReferenceCollection>(kind: K, where?: ReferenceWhere<K>): boolean {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const [has, setHas] = useState(false);
  useEffect(() => {
    let live = true;
    void client.referenceCount(kind, where).then(
      (n) => {
        if (live) setHas(n > 0);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, version, kind, where]);
  return has;
}
