import { useEffect, useState } from 'react';
import type { ApprovalFilter, ApprovalSort } from '../../../schema/entities/approval.ts';
import type { DataApi } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { joinInboxRow, type ApprovalView, type ClaimRow, type InboxRow } from './approval-rows.ts';
import type { InboxQuery } from './search-params.ts';

/** The worker's generic reads, typed (Comlink's `Remote` widens a generic method's collection). */
export const inboxReads = (client: DataClient) => ({
  query: client.query as DataApi['query'],
  get: client.get as DataApi['get'],
});

/** One inbox row by approval id: the approval, its claim and the claimant's name. */
export async function readInboxRow(client: DataClient, id: string, userName: (id: string) => string): Promise<InboxRow | null> {
  const approval = (await inboxReads(client).get('approvals', id)) as ApprovalView | null;
  if (!approval) return null;
  const claim = (await inboxReads(client).get('reimbursements', approval.object_id)) as ClaimRow | null;
  return joinInboxRow(approval, claim, userName);
}

async function readWindow(client: DataClient, filter: ApprovalFilter, sort: ApprovalSort, offset: number, limit: number, userName: (id: string) => string) {
  const reads = inboxReads(client);
  const page = await reads.query('approvals', { filter, sort, offset, limit });
  const claims = await Promise.all(page.rows.map((a) => reads.get('reimbursements', a.object_id)));
  return {
    rows: page.rows.map((a, i) => joinInboxRow(a as ApprovalView, claims[i] as ClaimRow | null, userName)),
    total: page.total,
  };
}

/**
 * The inbox: approvals from the mirror (a tab's statuses, never the viewer's own claims) joined
 * with the claims they review. Re-read when data or names change.
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
