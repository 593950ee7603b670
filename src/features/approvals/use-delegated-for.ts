import { useEffect, useState } from 'react';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * Issue 29: whom the viewer decides for today (their active received delegations: delegator id →
 * name), so the inbox marks those approvals "for Y". Read from the server when online and kept
 * for the session; offline before it was read, nothing is marked (the rows still show).
 */
export function useDelegatedFor(): ReadonlyMap<string, string> {
  const client = useDataClient();
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [map, setMap] = useState<ReadonlyMap<string, string>>(NONE);
  useEffect(() => {
    if (!online) return;
    let live = true;
    void client.delegations().then((r) => {
      if (live && r.ok) setMap(new Map(r.received.filter((d) => d.active).map((d) => [d.delegator_id, d.delegator_name])));
    });
    return () => {
      live = false;
    };
  }, [client, online]);
  return map;
}
