import { z } from 'zod';
import { billSortSchema, type BillFilter, type BillSort, type BillStatus } from '../../../schema/entities/bill.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The bills route's URL state, flat strings (§5): the text search, the status tab, the sort, the
 * bill open in the detail drawer, and `new=bill` (the palette's "New bill" from another page),
 * with `template=<id>` to start it from a bill template.
 * Selection stays in memory, as every list's.
 */
export const STATUS_TABS = [
  { key: 'all', label: 'All', statuses: [] },
  { key: 'drafts', label: 'Drafts', statuses: ['DRAFT'] },
  { key: 'pending', label: 'Awaiting approval', statuses: ['PENDING_APPROVAL'] },
  { key: 'ready', label: 'Ready to pay', statuses: ['APPROVED'] },
  { key: 'scheduled', label: 'Scheduled', statuses: ['SCHEDULED'] },
  { key: 'paid', label: 'Paid', statuses: ['PAID', 'RECONCILED'] },
  { key: 'failed', label: 'Failed', statuses: ['PAYMENT_FAILED'] },
  { key: 'rejected', label: 'Rejected', statuses: ['REJECTED'] },
  { key: 'canceled', label: 'Canceled', statuses: ['CANCELED'] },
] as const satisfies readonly { key: string; label: string; statuses: readonly BillStatus[] }[];
export type StatusTab = (typeof STATUS_TABS)[number]['key'];

const TAB_KEYS = STATUS_TABS.map((t) => t.key) as [StatusTab, ...StatusTab[]];

/** Soonest due first: what an AP clerk pays next is at the top. */
export const DEFAULT_SORT: BillSort = 'due_date_asc';

export const SORT_OPTIONS: readonly { value: BillSort; label: string }[] = [
  { value: 'due_date_asc', label: 'Due soonest' },
  { value: 'due_date_desc', label: 'Due latest' },
  { value: 'amount_desc', label: 'Largest amount' },
  { value: 'amount_asc', label: 'Smallest amount' },
  { value: 'created_desc', label: 'Newest first' },
];

export const billsSearchSchema = z.object({
  q: z.string().max(200).optional(),
  /** 'all' is the default and never written. */
  status: z.enum(TAB_KEYS).optional(),
  /** DEFAULT_SORT is never written. */
  sort: billSortSchema.optional(),
  open: z.uuid().optional(),
  /** Opens the new-bill form once the page is mounted (a link from elsewhere). */
  new: z.enum(['bill']).optional(),
  /** With `new=bill`: the bill template the new bill starts from (the Templates page's "Use template"). */
  template: z.uuid().optional(),
});
export type BillsSearch = z.infer<typeof billsSearchSchema>;


/** Each parameter on its own (lib/search-params.ts), its default left out. */
export const parseBillsSearch = (raw: Record<string, unknown>): BillsSearch => parseEachParam(billsSearchSchema, raw, { status: 'all', sort: DEFAULT_SORT });

/** The statuses a tab shows (none: every status). */
export const tabStatuses = (tab: StatusTab): readonly BillStatus[] => STATUS_TABS.find((t) => t.key === tab)?.statuses ?? [];

/** The worker's filter for a tab and the search text (trimmed; empty keys left out). */
export function filterFor(tab: StatusTab, q: string | undefined): BillFilter {
  const filter: BillFilter = {};
  const text = q?.trim();
  if (text) filter.q = text;
  const statuses = tabStatuses(tab);
  if (statuses.length > 0) filter.statuses = [...statuses];
  return filter;
}

/** A stable key for a query: equal queries get equal keys. */
export function queryKey(filter: BillFilter, sort: BillSort): string {
  return JSON.stringify([sort, filter.q ?? '', filter.statuses ?? []]);
}
