import { lazy, Suspense } from 'react';
import { useDataClient } from '../data-access/data-context.tsx';
import { useStore } from '../data-access/store.ts';
import { closeConflict, conflictStore } from '../lib/conflict-store.ts';

// The drawer reads the command catalogue (a change's fields): loaded when a conflict is opened.
const ConflictDrawer = lazy(() => import('../components/conflict-drawer.tsx').then((m) => ({ default: m.ConflictDrawer })));

/** Issue 24: the conflict drawer, over any page, for the change `openConflict(id)` named. */
export function ConflictHost() {
  const client = useDataClient();
  const open = useStore(conflictStore, (s) => s.open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ConflictDrawer key={open} client={client} entryId={open} onClose={closeConflict} />
    </Suspense>
  );
}
