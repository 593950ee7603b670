import { BULK_BILL_LIMIT } from '../../../schema/bill-rules.ts';
import type { BillFilter, BillSort } from '../../../schema/entities/bill.ts';
import type { RowView } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads, matchingIds } from '../../lib/list/collection-reads.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { useRead } from '../../lib/use-read.ts';
import { useAnswer } from '../../lib/use-answer.ts';
import { readFlag } from '../../../schema/feature-flags.ts';
import { queryKey, STATUS_TABS, type StatusTab } from './search-params.ts';

/** A bill as the worker shows it: its server row with the commands still in the outbox on top, and their marks. */
export type BillView = RowView<'bills'>;
export type ApprovalStepView = RowView<'approvals'>;

/** The worker's generic reads, typed (src/lib/list/collection-reads.ts). */
export const billReads = collectionReads;

/** The bills matching a filter, as row windows from the mirror (bills created offline included, marked). */
export function useBillRows(client: DataClient, filter: BillFilter, sort: BillSort, version: number): ListRows<BillView> {
  return useRows<BillView>({
    key: queryKey(filter, sort),
    version,
    what: 'Bills',
    read: (offset, limit) => billReads(client).query('bills', { filter, sort, offset, limit }),
  });
}

/** Every id the filter matches ("Select all N matching"). */
export const matchingBillIds = (client: DataClient, filter: BillFilter, sort: BillSort) => matchingIds(client, 'bills', filter, sort);

/** How many bills each status tab holds for the search text (the tabs' counts). */
export function useTabCounts(client: DataClient, q: string | undefined, version: number): Record<StatusTab, number> | null {
  const text = q?.trim() || undefined;
  return useRead(`counts:${text ?? ''}`, version, async () => {
    const counts = await Promise.all(
      STATUS_TABS.map((t) => billReads(client).totals('bills', { filter: { ...(text ? { q: text } : {}), ...(t.statuses.length ? { statuses: [...t.statuses] } : {}) } })),
    );
    return Object.fromEntries(STATUS_TABS.map((t, i) => [t.key, counts[i]!.count])) as Record<StatusTab, number>;
  }, 'Bill counts');
}

/** The selected bills as shown (what the bulk bar decides its actions from); ids no longer in the mirror are left out. */
export function useSelectedBills(client: DataClient, ids: ReadonlySet<string>, version: number, limit: number = BULK_BILL_LIMIT): BillView[] | null {
  // Beyond the business's bulk limit no action can run: the bar says so without reading thousands of rows.
  const list = ids.size > limit ? [] : [...ids].sort();
  return useRead(`selected:${list.join(',')}`, version, async () => {
    const rows = await Promise.all(list.map((id) => billReads(client).get('bills', id)));
    return rows.filter((r): r is BillView => r !== null);
  }, 'The selected bills');
}

/** One bill as shown, or null when it is not in the mirror (undefined until the answer). */
export function useBill(client: DataClient, id: string, version: number): BillView | null | undefined {
  const answer = useRead(`bill:${id}`, version, async () => ({ row: await billReads(client).get('bills', id) }), 'The bill');
  return answer === null ? undefined : answer.row;
}

/**
 * The business's §3 `bulk_bill_creation_limit` as this device caches it (the default, 50, until
 * read): the bulk bar refuses a larger selection before sending, in the server's words.
 */
export function useBulkBillLimit(client: DataClient): number {
  const flags = useAnswer(() => client.flags(), [client]);
  return readFlag(flags, 'bulk_bill_creation_limit');
}

/**
 * The bill's approval steps this device holds, oldest first: each step of the chain opens its
 * own approval when the one before it is approved (server/domain/approval-rows.ts), so the rows
 * are the steps reached so far with their decisions.
 */
export function useBillApprovals(client: DataClient, billId: string, version: number): ApprovalStepView[] | null {
  return useRead(`approvals:${billId}`, version, async () => {
    const page = await billReads(client).query('approvals', { filter: { object_ids: [billId] }, sort: 'created_asc', offset: 0, limit: 100 });
    return page.rows;
  }, 'The bill’s approvals');
}

/** Issue 28: the bill's own review chain, apart from its payments' (object_type `vendor-payment`). */
export const isPaymentStep = (step: Pick<ApprovalStepView, 'object_type'>) => step.object_type === 'vendor-payment';
