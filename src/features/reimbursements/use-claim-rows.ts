import { useCallback, useEffect, useState } from 'react';
import type { ReimbursementFilter } from '../../../schema/entities/reimbursement.ts';
import type { DataApi } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import type { ClaimView } from './claim-labels.ts';
import { pendingCreates, visiblePendingCreates, type ClaimOwner } from './pending-claims.ts';
import { queryKey, SORT } from './search-params.ts';

/**
 * The worker's generic reads, typed for claims: Comlink's `Remote` widens a generic method's
 * collection parameter to the union, so the client's `query`/`get` are seen through DataApi's.
 */
export const claimReads = (client: DataClient) => ({
  query: client.query as DataApi['query'],
  get: client.get as DataApi['get'],
});

/** Claims created here and not yet in the mirror (pending-claims.ts), minus those the mirror now holds. */
async function unconfirmedCreates(client: DataClient, owner: ClaimOwner): Promise<ClaimView[]> {
  const created = pendingCreates(await client.outbox(), owner);
  const mirrored = await Promise.all(created.map((c) => claimReads(client).get('reimbursements', c.id)));
  return created.filter((_, i) => mirrored[i] === null);
}

/** One claim as shown: the mirror's, else one created here and not yet confirmed. */
export async function readClaim(client: DataClient, id: string, owner: ClaimOwner): Promise<ClaimView | null> {
  const row = await claimReads(client).get('reimbursements', id);
  if (row) return row;
  return pendingCreates(await client.outbox(), owner).find((c) => c.id === id) ?? null;
}

/**
 * The caller's visible claims matching a filter, newest first, as row windows from the mirror,
 * with the claims created on this device and not yet confirmed pinned on top (newest first).
 */
export function useClaimRows(client: DataClient, filter: ReimbursementFilter, dataVersion: number, owner: ClaimOwner): ListRows<ClaimView> {
  const key = queryKey(filter);
  const worker = useRows<ClaimView>({
    key,
    version: dataVersion,
    what: 'Reimbursements',
    read: (offset, limit) => claimReads(client).query('reimbursements', { filter, sort: SORT, offset, limit }),
  });
  const [created, setCreated] = useState<readonly ClaimView[]>([]);
  const { user_id, business_id } = owner;
  useEffect(() => {
    let live = true;
    void unconfirmedCreates(client, { user_id, business_id }).then((claims) => {
      if (live) setCreated(claims);
    });
    return () => {
      live = false;
    };
  }, [client, dataVersion, user_id, business_id]);
  return usePinnedRows(visiblePendingCreates(created, filter), worker);
}

/** `pinned` rows first, then the worker's list (its indexes shifted by the pinned count). */
function usePinnedRows(pinned: readonly ClaimView[], worker: ListRows<ClaimView>): ListRows<ClaimView> {
  const k = pinned.length;
  const { ensure: ensureWorker, idsInRange: workerIds, row: workerRow } = worker;
  const ensure = useCallback((start: number, end: number) => ensureWorker(Math.max(0, start - k), Math.max(0, end - k)), [ensureWorker, k]);
  return {
    total: worker.total === null ? null : worker.total + k,
    row: (i) => (i < k ? pinned[i] : workerRow(i - k)),
    ensure,
    idsInRange: async (start, end) => [
      ...pinned.slice(start, end + 1).map((c) => c.id),
      ...(end >= k ? await workerIds(Math.max(0, start - k), end - k) : []),
    ],
    tookMs: worker.tookMs,
    waiting: worker.waiting,
  };
}
