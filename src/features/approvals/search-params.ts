import { z } from 'zod';
import type { ApprovalFilter, ApprovalObjectType, ApprovalSort, ApprovalStatus } from '../../../schema/entities/approval.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * The approvals inbox's URL state, flat strings (§5): the tab (Pending, the default and never
 * written, or Decided), the Type filter (all, the default and never written, claims, card
 * requests or bills), the search text `q` (issue 25: requester, vendor or merchant, memo, amount, invoice
 * number; inbox-search.ts) and the approval open in the detail drawer. Pending reads oldest first (the longest
 * waiting on top); Decided newest first.
 */
export const INBOX_TABS = [
  { key: 'pending', label: 'Pending', statuses: ['PENDING'], sort: 'created_asc' },
  { key: 'decided', label: 'Decided', statuses: ['APPROVED', 'REJECTED', 'CANCELED'], sort: 'created_desc' },
] as const satisfies readonly { key: string; label: string; statuses: readonly ApprovalStatus[]; sort: ApprovalSort }[];
export type InboxTab = (typeof INBOX_TABS)[number]['key'];

/** The Type filter's choices and the approvals each shows. */
export const INBOX_TYPES = [
  { key: 'claims', label: 'Claims', objectType: 'reimbursement' },
  { key: 'card_requests', label: 'Card requests', objectType: 'card_request' },
  { key: 'bills', label: 'Bills', objectType: 'bill' },
  { key: 'spend_requests', label: 'Spend requests', objectType: 'spend_request' },
] as const satisfies readonly { key: string; label: string; objectType: ApprovalObjectType }[];
export type InboxType = (typeof INBOX_TYPES)[number]['key'];

export const approvalsSearchSchema = z.object({
  tab: z.enum(['pending', 'decided']).optional(),
  type: z.enum(['claims', 'card_requests', 'bills', 'spend_requests']).optional(),
  q: z.string().max(200).optional(),
  open: z.uuid().optional(),
});
export type ApprovalsSearch = z.infer<typeof approvalsSearchSchema>;


/** Each parameter on its own (lib/search-params.ts), its default left out. */
export const parseApprovalsSearch = (raw: Record<string, unknown>): ApprovalsSearch => parseEachParam(approvalsSearchSchema, raw, { tab: 'pending' });

export interface InboxQuery {
  filter: ApprovalFilter;
  sort: ApprovalSort;
  key: string;
}

/**
 * The worker's query for a tab: its statuses, never the viewer's own claims or requests
 * (`exclude_user_ids`), only one kind when the Type filter names one (none: both, as the badge counts).
 */
export function inboxQuery(tab: InboxTab, viewerId: string, type?: InboxType): InboxQuery {
  const t = INBOX_TABS.find((x) => x.key === tab) ?? INBOX_TABS[0];
  const kind = INBOX_TYPES.find((x) => x.key === type);
  const filter: ApprovalFilter = { status: [...t.statuses], exclude_user_ids: [viewerId], ...(kind ? { object_types: [kind.objectType] } : {}) };
  return { filter, sort: t.sort, key: JSON.stringify([t.key, viewerId, kind?.key ?? 'all']) };
}
