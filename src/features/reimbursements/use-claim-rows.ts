import type { ReimbursementFilter } from '../../../schema/entities/reimbursement.ts';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import type { ClaimView } from './claim-labels.ts';
import { queryKey, SORT } from './search-params.ts';

/** The worker's generic reads, typed (src/lib/list/collection-reads.ts). */
export const claimReads = collectionReads;

/** Whose claims a page shows (the signed-in user). Claims created on this device come from the worker too. */
export interface ClaimOwner {
  user_id: string;
  business_id: string;
}

/**
 * One claim as shown, from the worker: its server row with the commands still in the outbox on
 * top, or a claim created here and not yet confirmed (the worker derives it from its create).
 */
export async function readClaim(client: DataClient, id: string, _owner?: ClaimOwner): Promise<ClaimView | null> {
  return claimReads(client).get('reimbursements', id);
}

/**
 * The caller's visible claims matching a filter, newest first, as row windows from the worker
 * (claims created offline included, marked "Waiting to sync", or failed with the server's reason).
 */
export function useClaimRows(client: DataClient, filter: ReimbursementFilter, dataVersion: number): ListRows<ClaimView> {
  return useRows<ClaimView>({
    key: queryKey(filter),
    version: dataVersion,
    what: 'Reimbursements',
    read: (offset, limit) => claimReads(client).query('reimbursements', { filter, sort: SORT, offset, limit }),
  });
}
