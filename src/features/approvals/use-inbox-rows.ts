import { useEffect, useMemo, useState } from 'react';
import type { Approval, ApprovalFilter, ApprovalSort } from '../../../schema/entities/approval.ts';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { joinInboxRow, REVIEWED_COLLECTION, type ApprovalView, type InboxRow, type ReviewedRow } from './approval-rows.ts';
import { matchesInboxSearch, searchTerms, type InboxSearchNames } from './inbox-search.ts';
import type { InboxQuery } from './search-params.ts';

/** A search over the inbox: its text and the names it reads (inbox-search.ts). */
export interface InboxSearch {
  q: string;
  names: InboxSearchNames;
}

const PAGE = 500;

/** The worker's generic reads, typed (src/lib/list/collection-reads.ts). */
export const inboxReads = collectionReads;

/** What the approval reviews, from its own collection (a claim or a card request). */
async function readReviewed(client: DataClient, approval: Pick<Approval, 'object_type' | 'object_id' | 'user_id'>): Promise<ReviewedRow | null> {
  if (approval.object_type === 'travel_booking') return readBookingTrip(client, approval);
  const collection = REVIEWED_COLLECTION[approval.object_type];
  if (collection === null) return null;
  return (await inboxReads(client).get(collection, approval.object_id)) as ReviewedRow | null;
}

/** Issue 27: the traveller's trip holding the booking (bookings live inside their trip's doc). */
async function readBookingTrip(client: DataClient, approval: Pick<Approval, 'object_id' | 'user_id'>): Promise<ReviewedRow | null> {
  const trips = await inboxReads(client).query('trips', { filter: { user_ids: [approval.user_id] }, sort: 'start_desc', offset: 0, limit: PAGE });
  return (trips.rows.find((t) => t.bookings.some((b) => b.id === approval.object_id)) as ReviewedRow | undefined) ?? null;
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
 * Every row of the tab, joined, that matches the search: the search reads what the approvals
 * review (vendor, invoice number, memo, amount), which lives in other collections, so it runs
 * over the joined rows of the tab from the mirror (offline too), in the tab's order.
 */
export async function readMatching(client: DataClient, query: InboxQuery, userName: (id: string) => string, search: InboxSearch): Promise<InboxRow[]> {
  const out: InboxRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await readWindow(client, query.filter, query.sort, offset, PAGE, userName);
    out.push(...page.rows.filter((r) => matchesInboxSearch(r, search.q, search.names)));
    if (page.rows.length < PAGE || offset + PAGE >= page.total) return out;
  }
}

/**
 * The inbox: approvals from the mirror (a tab's statuses, never the viewer's own) joined with the
 * claims, card requests and bills they review, narrowed by the search when there is one. Re-read
 * when data or names change.
 */
export function useInboxRows(
  client: DataClient, query: InboxQuery, version: number, userName: (id: string) => string, search?: InboxSearch,
): ListRows<InboxRow> {
  const { filter, sort } = query;
  const terms = searchTerms(search?.q ?? '').join(' ');
  // One read of the whole tab per (query, search, data version); the windows are slices of it.
  const matching = useMemo(
    () => {
      if (!terms || !search) return null;
      let answer: Promise<InboxRow[]> | null = null;
      return () => (answer ??= readMatching(client, query, userName, search));
    },
    // `search.names` changes with the reference data, which bumps `version` too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, query, terms, version, userName],
  );
  return useRows<InboxRow>({
    key: terms ? `${query.key}|${terms}` : query.key,
    version,
    what: 'Approvals',
    read: matching
      ? async (offset, limit) => {
        const rows = await matching();
        return { rows: rows.slice(offset, offset + limit), total: rows.length };
      }
      : (offset, limit) => readWindow(client, filter, sort, offset, limit, userName),
  });
}

/** Every id the query (and the search, when there is one) matches: the selection's "Select all". */
export async function inboxIds(client: DataClient, query: InboxQuery, search?: InboxSearch, userName?: (id: string) => string): Promise<string[]> {
  if (search && searchTerms(search.q).length > 0) return (await readMatching(client, query, userName ?? (() => ''), search)).map((r) => r.id);
  const reads = inboxReads(client);
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await reads.query('approvals', { filter: query.filter, sort: query.sort, offset, limit: PAGE });
    ids.push(...page.rows.map((r) => r.id));
    if (page.rows.length < PAGE || ids.length >= page.total) return ids;
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
