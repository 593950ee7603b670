import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity, newestFirst } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';
import { APPROVAL_STATUSES } from '../reimbursement-rules.ts';

/**
 * Issue 9: an approval is the review step of a submitted claim. Submitting (or resubmitting) a
 * reimbursement opens one PENDING approval; approving or rejecting it moves the claim in the same
 * transaction; canceling the claim cancels it. A claim keeps its decided approvals as history
 * (at most one PENDING at a time). Since issue 11 a submission starts an approval chain
 * (schema/approval-policy.ts) and each step of it opens its own approval in turn; the claim moves
 * when the last step is approved.
 */
export { APPROVAL_STATUSES };
const approvalStatusSchema = z.enum(APPROVAL_STATUSES);
export type { ApprovalStatus } from '../reimbursement-rules.ts';

/**
 * What an approval reviews: a submitted claim, a card request (issue 10; approving issues the
 * card), a bill (issue 11: the chain's last approval moves it PENDING_APPROVAL → APPROVED), or an
 * out-of-policy travel booking (issue 27: approving books and charges it), and since issue 28 a
 * spend request, a bill's payment (`vendor-payment`, object_id the bill: approving pays it) and a
 * vendor's new payee details (`payee`, object_id the vendor: approving lets it be paid).
 * The list is the mirror's enum too: a new kind bumps MIRROR_SCHEMA_VERSION (schema/mirror.ts).
 */
const APPROVAL_OBJECT_TYPES = ['reimbursement', 'card_request', 'bill', 'travel_booking', 'spend_request', 'vendor-payment', 'payee'] as const;
export type ApprovalObjectType = (typeof APPROVAL_OBJECT_TYPES)[number];

export const approvalSchema = z.object({
  id: uuid,
  object_type: z.enum(APPROVAL_OBJECT_TYPES),
  /** The reviewed object (a reimbursement's, a card request's or a bill's id). */
  object_id: uuid,
  /** Whose claim it is: the submitter (a bill's: who submitted it). Nobody reviews their own claim. */
  user_id: uuid,
  /**
   * The approver scope: the submitter's manager when the claim was submitted (null when they
   * have none). Admins and bookkeepers may decide any approval; a manager those of their team.
   */
  approver_id: uuid.nullable(),
  status: approvalStatusSchema,
  /** The rejection reason (REJECTED only). */
  reason: z.string().max(2000).nullable(),
  decided_by: uuid.nullable(),
  /**
   * Issue 29: decided through a delegation: `decided_by` stood in for this approver ("by X for Y").
   * Absent or null otherwise (and on an optimistic decision until the feed brings the row).
   */
  on_behalf_of: uuid.nullable().optional(),
  decided_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type Approval = z.infer<typeof approvalSchema>;

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item));

const APPROVAL_SORTS = ['created_desc', 'created_asc'] as const;
export type ApprovalSort = (typeof APPROVAL_SORTS)[number];

/**
 * `status` (`?status=PENDING`, comma-joined for several), the reviewed objects, and
 * `exclude_user_ids`: the inbox passes the viewer's own id, since their own claims' approvals are
 * not theirs to act on (the server's list always leaves them out).
 */
export const approvalFilterSchema = z.object({
  /** Free text over the rejection reason (the worker's text index; the server's list ignores it). */
  q: z.string().max(200).optional(),
  status: csv(approvalStatusSchema).optional(),
  object_ids: csv(z.uuid()).optional(),
  user_ids: csv(z.uuid()).optional(),
  exclude_user_ids: csv(z.uuid()).optional(),
  /** What the approvals review (the inbox's Type filter: claims or card requests). */
  object_types: csv(z.enum(APPROVAL_OBJECT_TYPES)).optional(),
});
export type ApprovalFilter = z.infer<typeof approvalFilterSchema>;

export function matchesApprovalFilter(a: Approval, f: ApprovalFilter): boolean {
  if (f.status?.length && !f.status.includes(a.status)) return false;
  if (f.object_ids?.length && !f.object_ids.includes(a.object_id)) return false;
  if (f.user_ids?.length && !f.user_ids.includes(a.user_id)) return false;
  if (f.exclude_user_ids?.length && f.exclude_user_ids.includes(a.user_id)) return false;
  if (f.object_types?.length && !f.object_types.includes(a.object_type)) return false;
  return true;
}

function compareApprovals(sort: ApprovalSort) {
  const newest = (a: Approval, b: Approval) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  return sort === 'created_desc' ? newest : (a: Approval, b: Approval) => newest(b, a);
}

function referencedIds(a: Approval): string[] {
  const ids = [a.user_id];
  for (const id of [a.approver_id, a.decided_by, a.on_behalf_of]) if (id) ids.push(id);
  return ids;
}

/** Table `approvals` (migration 009). */
const approvalColumns: ColumnMap<Approval> = {
  id: { type: 'uuid', indexed: true },
  object_type: { type: 'text' },
  object_id: { type: 'uuid', indexed: true },
  user_id: { type: 'uuid', indexed: true },
  approver_id: { type: 'uuid' },
  status: { type: 'text' },
  reason: { type: 'text' },
  decided_by: { type: 'uuid' },
  on_behalf_of: { type: 'uuid' },
  decided_at: { type: 'timestamptz' },
  created_at: { type: 'timestamptz', indexed: true },
  ...MIRRORED_COLUMNS,
};

export const approvalEntity = defineEntity({
  name: 'approvals',
  schema: approvalSchema,
  mirror: newestFirst('created_desc', 'created_at'),
  visibility: 'approver',
  searchText: ['reason'],
  query: {
    filter: approvalFilterSchema,
    sorts: APPROVAL_SORTS,
    matches: matchesApprovalFilter,
    compare: compareApprovals,
    referencedIds,
  },
  columns: approvalColumns,
});
