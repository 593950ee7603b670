import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import type { MissingItemView } from '../../../workers/api.ts';
import { useAnswer } from '../../lib/use-answer.ts';

type Answer = { items: MissingItemView[]; total: number };

/**
 * The signed-in person's missing items, from the mirror (offline too), read again on every data
 * change. The nav entry, its badge and the wizard ask at once for the same version: one read is
 * shared (the last version's promise is kept).
 */
let last: { client: DataClient; version: number; answer: Promise<Answer> } | null = null;
function read(client: DataClient, version: number): Promise<Answer> {
  if (last?.client !== client || last.version !== version) last = { client, version, answer: client.missingItems() };
  return last.answer;
}

export function useMissingItems(): Answer | null {
  const client = useDataClient();
  const version = useAppState((s) => s.dataVersion);
  const signedIn = useAppState((s) => s.session?.user.id ?? '');
  return useAnswer(() => read(client, version), [client, version, signedIn]);
}

/** Whether anything is missing (the nav shows "Missing items" then). */
export function useHasMissingItems(): boolean {
  return (useMissingItems()?.total ?? 0) > 0;
}

/** "Missing items 12": the nav link's count (none: nothing shown). */
export function MissingItemsBadge() {
  const count = useMissingItems()?.total ?? 0;
  if (!count) return null;
  return (
    <span className="nav-badge" data-testid="missing-items-badge">
      <span className="sr-only">, </span>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> to fix</span>
    </span>
  );
}
