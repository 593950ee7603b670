import { z } from 'zod';
import type { ApprovalFilter, ApprovalSort, ApprovalStatus } from '../../../schema/entities/approval.ts';

/**
 * The approvals inbox's URL state, flat strings (§5): the tab (Pending, the default and never
 * written, or Decided) and the approval open in the detail drawer. Pending reads oldest first
 * (the longest waiting on top); Decided newest first.
 */
export const INBOX_TABS = [
  { key: 'pending', label: 'Pending', statuses: ['PENDING'], sort: 'created_asc' },
  { key: 'decided', label: 'Decided', statuses: ['APPROVED', 'REJECTED', 'CANCELED'], sort: 'created_desc' },
] as const satisfies readonly { key: string; label: string; statuses: readonly ApprovalStatus[]; sort: ApprovalSort }[];
export type InboxTab = (typeof INBOX_TABS)[number]['key'];

export const approvalsSearchSchema = z.object({
  tab: z.enum(['pending', 'decided']).optional(),
  open: z.uuid().optional(),
});
export type ApprovalsSearch = z.infer<typeof approvalsSearchSchema>;

const SHAPE = approvalsSearchSchema.shape as Record<string, z.ZodType>;

/** Each parameter on its own: a bad value drops that parameter, not the whole URL state. */
export function parseApprovalsSearch(raw: Record<string, unknown>): ApprovalsSearch {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SHAPE)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = schema.safeParse(typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    if (!parsed.success || parsed.data === undefined) continue;
    if (key === 'tab' && parsed.data === 'pending') continue;
    out[key] = parsed.data;
  }
  return out as ApprovalsSearch;
}

export interface InboxQuery {
  filter: ApprovalFilter;
  sort: ApprovalSort;
  key: string;
}

/** The worker's query for a tab: its statuses, never the viewer's own claims (`exclude_user_ids`). */
export function inboxQuery(tab: InboxTab, viewerId: string): InboxQuery {
  const t = INBOX_TABS.find((x) => x.key === tab) ?? INBOX_TABS[0];
  const filter: ApprovalFilter = { status: [...t.statuses], exclude_user_ids: [viewerId] };
  return { filter, sort: t.sort, key: JSON.stringify([t.key, viewerId]) };
}
