import { useEffect, useState } from 'react';
import type { Approval, ApprovalFilter, ApprovalSort } from '../../../schema/entities/approval.ts';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { joinInboxRow, REVIEWED_COLLECTION, type ApprovalView, type InboxRow, type ReviewedRow } from './approval-rows.ts';
import type { InboxQuery } from './search-params.ts';

/** The worker's generic reads, typed (src/lib/list/collection-reads.ts). */
export const inboxReads = collectionReads;

/** What the approval reviews, from its own collection (a claim or a card request). */
async function readReviewed(client: DataClient, approval: Pick<Approval, 'object_type' | 'object_id'>): Promise<ReviewedRow | null> {
  const collection = REVIEWED_COLLECTION[approval.object_type];
  return (await inboxReads(client).get(collection, approval.object_id)) as ReviewedRow | null;
}

/** One inbox row by approval id: the approval, what it reviews and the submitter's name. */
export async function readInboxRow(client: DataClient, id: string, userName: (id: string) => string): Promise<InboxRow | null> {
  const approval = (await inboxReads(client).get('approvals', id)) as ApprovalView | null;
  if (!approval) return null;
  return joinInboxRow(approval, await readReviewed(client, approval), userName);
}

/**
 * Rows by approval id without what they review (enough to decide them and word the decision):
 * the selected rows outside the loaded windows. Ids no longer in the mirror are left out.
 */
export async function readApprovalRows(client: DataClient, ids: readonly string[], userName: (id: string) => string): Promise<InboxRow[]> {
  const approvals = await Promise.all(ids.map((id) => inboxReads(client).get('approvals', id)));
  return approvals.flatMap((a) => (a ? [joinInboxRow(a as ApprovalView, null, userName)] : []));
}

async function readWindow(client: DataClient, filter: ApprovalFilter, sort: ApprovalSort, offset: number, limit: number, userName: (id: string) => string) {
  const page = await inboxReads(client).query('approvals', { filter, sort, offset, limit });
  const reviewed = await Promise.all(page.rows.map((a) => readReviewed(client, a)));
  return {
    rows: page.rows.map((a, i) => joinInboxRow(a as ApprovalView, reviewed[i] ?? null, userName)),
    total: page.total,
  };
}

/**
 * The inbox: approvals from the mirror (a tab's statuses, never the viewer's own) joined with the
 * claims and card requests they review. Re-read when data or names change.
 */
export function useInboxRows(client: DataClient, query: InboxQuery, version: number, userName: (id: string) => string): ListRows<InboxRow> {
  const { filter, sort } = query;
  return useRows<InboxRow>({
    key: query.key,
    version,
    what: 'Approvals',
    read: (offset, limit) => readWindow(client, filter, sort, offset, limit, userName),
  });
}

/** Every id the query matches (the selection's "Select all"). */
export async function inboxIds(client: DataClient, query: InboxQuery): Promise<string[]> {
  const reads = inboxReads(client);
  const ids: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await reads.query('approvals', { filter: query.filter, sort: query.sort, offset, limit: 500 });
    ids.push(...page.rows.map((r) => r.id));
    if (page.rows.length < 500 || ids.length >= page.total) return ids;
  }
}

/** How many approvals wait for the viewer (the nav badge); null before the first answer. */
export function usePendingCount(client: DataClient, query: InboxQuery, version: number): number | null {
  const [count, setCount] = useState<number | null>(null);
  const { filter, sort } = query;
  useEffect(() => {
    let live = true;
    void inboxReads(client)
      .query('approvals', { filter, sort, offset: 0, limit: 1 })
      .then((page) => {
        if (live) setCount(page.total);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, filter, sort, version]);
  return count;
}
