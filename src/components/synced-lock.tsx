import { useState } from 'react';
import type { SyncObjectType } from '../../schema/api/calls-accounting.ts';
import { canManageBillPayAccounting } from '../../schema/roles.ts';
import { Button } from './button.tsx';
import { useAppState } from '../data-access/data-context.tsx';
import type { DataClient } from '../data-access/types.ts';
import { errorText } from '../lib/error-text.ts';
import { formatDay } from '../lib/format.ts';
import { toastError, toastInfo } from '../lib/toast-store.ts';

/**
 * Issue 12, in an item's drawer (a transaction's today; bills and claims carry the same mark): the
 * item was exported by a sync commit, so its coding is locked (the accounting system holds it now). Someone who manages bill pay accounting may mark
 * it not synced, online only (a server call, not an outbox command); the feed then brings the
 * item back unlocked, and the next sync exports it again.
 */
/** Why Edit is disabled on an item exported to accounting (its tooltip). */
export const SYNCED_EDIT_HINT = 'Exported to accounting: mark it as not synced to edit it.';

export function SyncedLock({ client, type, id, syncedAt }: { client: DataClient; type: SyncObjectType; id: string; syncedAt: string }) {
  const user = useAppState((s) => s.session?.user);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const [busy, setBusy] = useState(false);
  const may = !!user && canManageBillPayAccounting(user);

  async function unsync() {
    setBusy(true);
    try {
      const r = await client.markNotSynced([{ type, id }]);
      if (!r.ok) return toastError(errorText(r.error));
      toastInfo('Marked as not synced: its coding unlocks in a moment, and the next sync exports it again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="notice synced-lock" data-testid="synced-lock">
      <p>Exported to accounting on {formatDay(syncedAt)}. Coding is locked so the books match.</p>
      {may && (
        <p>
          <Button size="sm" loading={busy} disabled={!online} onClick={() => void unsync()}>
            Mark as not synced
          </Button>
          {!online && <span className="muted"> Needs a connection.</span>}
        </p>
      )}
    </div>
  );
}
