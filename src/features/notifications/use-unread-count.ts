import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { DataApi } from '../../../workers/api.ts';
import { useAnswer } from '../../lib/use-answer.ts';

/**
 * The signed-in person's unread notifications, counted in the mirror (offline too: "mark read"
 * made offline is already applied), read again on every data change. Kept tiny: the bell is in
 * the first load, so this file imports no schema values.
 */
let last: { client: DataClient; version: number; answer: Promise<number> } | null = null;
function read(client: DataClient, version: number): Promise<number> {
  if (last?.client !== client || last.version !== version) {
    // Seen through DataApi's generic method, as collectionReads does (not imported: the bell is in the first load).
    const answer = (client.query as DataApi['query'])('notifications', { filter: { unread: true }, sort: 'created_desc', offset: 0, limit: 1 })
      .then((page) => page.total);
    last = { client, version, answer };
  }
  return last.answer;
}

/** The unread count, null until the mirror has answered. */
export function useUnreadCount(): number | null {
  const client = useDataClient();
  const version = useAppState((s) => s.dataVersion);
  const signedIn = useAppState((s) => s.session?.user.id ?? '');
  return useAnswer(() => read(client, version), [client, version, signedIn]);
}
