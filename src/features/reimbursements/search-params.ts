import { z } from 'zod';
import type { ReimbursementFilter, ReimbursementSort, ReimbursementStatus } from '../../../schema/entities/reimbursement.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The reimbursements route's URL state, flat strings (§5): the text search, the status tab and
 * the claim open in the detail drawer. The list is always newest first (the mirror's indexed
 * `date_desc`), so no sort or page lives here: the list is virtualised, not paged by hand.
 */
export const STATUS_TABS = [
  { key: 'all', label: 'All', statuses: [] },
  { key: 'draft', label: 'Drafts', statuses: ['DRAFT'] },
  { key: 'submitted', label: 'Submitted', statuses: ['SUBMITTED'] },
  { key: 'approved', label: 'Approved', statuses: ['APPROVED'] },
  { key: 'paid', label: 'Paid', statuses: ['PAID'] },
  { key: 'rejected', label: 'Rejected', statuses: ['REJECTED'] },
] as const satisfies readonly { key: string; label: string; statuses: readonly ReimbursementStatus[] }[];
export type StatusTab = (typeof STATUS_TABS)[number]['key'];

const TAB_KEYS = STATUS_TABS.map((t) => t.key) as [StatusTab, ...StatusTab[]];

export const reimbursementsSearchSchema = z.object({
  q: z.string().max(200).optional(),
  /** 'all' is the default and never written. */
  status: z.enum(TAB_KEYS).optional(),
  open: z.uuid().optional(),
  /** Opens the out-of-pocket form at once (a link from the Receipts inbox), with `receipt` attached. */
  new: z.enum(['out_of_pocket', 'per_diem']).optional(),
  receipt: z.uuid().optional(),
  /**
   * Issue 27, `new=per_diem` from a trip: the per-diem form with its place and days filled in;
   * the claim saved is linked to `trip` (its `trip.linkSpend` waits for the claim's create).
   */
  location: z.string().max(200).optional(),
  start: z.iso.date().optional(),
  end: z.iso.date().optional(),
  trip: z.uuid().optional(),
});
export type ReimbursementsSearch = z.infer<typeof reimbursementsSearchSchema>;

export const SORT: ReimbursementSort = 'date_desc';


/** Each parameter on its own (lib/search-params.ts), its default left out. */
export const parseReimbursementsSearch = (raw: Record<string, unknown>): ReimbursementsSearch => parseEachParam(reimbursementsSearchSchema, raw, { status: 'all' });

/** The worker's filter for the URL state (a tab narrows by its statuses; `q` the claim text). */
export function filterFromSearch(search: Pick<ReimbursementsSearch, 'q' | 'status'>): ReimbursementFilter {
  const tab = STATUS_TABS.find((t) => t.key === (search.status ?? 'all'));
  const filter: ReimbursementFilter = {};
  const q = search.q?.trim();
  if (q) filter.q = q;
  if (tab && tab.statuses.length > 0) filter.statuses = [...tab.statuses];
  return filter;
}

/** A stable key for a filter: equal queries get equal keys. */
export function queryKey(filter: ReimbursementFilter): string {
  return JSON.stringify([SORT, filter.q ?? '', filter.statuses ?? []]);
}
