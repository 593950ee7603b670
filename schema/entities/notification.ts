import { z } from 'zod';
import { boolParam, csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { byDateThenId, presentIds } from './query-shapes.ts';

/**
 * Issue 29: the notifications centre. One row per person and event: an approval waiting for
 * them, their request approved or rejected (with the reason), items missing a receipt, memo or
 * coding, a mention or a comment on something of theirs, a workflow's `notify` action, a card
 * transaction over the business's notify threshold (admins). Written by the server in the same
 * transaction as the event (server/domain/notifications/), at most once per person and event
 * (`event_key`, a table column the wire does not carry), and mailed through the mail layer unless
 * the person muted that kind's mail (notification preferences).
 *
 * Mirrored (`own`, RxDB slot 12, queried): the bell's unread count and the list read the mirror,
 * so they work offline, and "mark read" is a command (commands/notification.ts) the outbox
 * carries. Visibility `self` on `owner_id`: a person sees only their own, admins included.
 */
export const NOTIFICATION_KINDS = [
  'approval_waiting', 'approved', 'rejected', 'missing_items', 'mention', 'comment', 'workflow', 'large_transaction',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** What a notification is about (opens it). */
export const NOTIFICATION_SUBJECT_TYPES = [
  'transaction', 'reimbursement', 'bill', 'spend_request', 'card_request', 'approval', 'vendor', 'trip', 'workflow',
] as const;
export const notificationSubjectTypeSchema = z.enum(NOTIFICATION_SUBJECT_TYPES);
export type NotificationSubjectType = z.infer<typeof notificationSubjectTypeSchema>;

export const NOTIFICATION_TITLE_MAX = 200;
export const NOTIFICATION_BODY_MAX = 2000;

export const notificationSchema = z.object({
  id: uuid,
  /** The person it is for (the `self` visibility rule reads this column). */
  owner_id: uuid,
  kind: notificationKindSchema,
  /** One line: "Maya Chen's claim is waiting for your approval". */
  title: z.string().min(1).max(NOTIFICATION_TITLE_MAX),
  /** More words, possibly empty: the rejection reason, the comment's text, the workflow's message. */
  body: z.string().max(NOTIFICATION_BODY_MAX),
  subject_type: notificationSubjectTypeSchema.nullable(),
  subject_id: uuid.nullable(),
  /** Where the app opens it: an in-app path such as `/approvals?open=<id>` (always starts with `/`). */
  path: z.string().startsWith('/').max(500),
  /** Who caused it (the commenter, the approver), null for the system or a workflow. */
  actor_id: uuid.nullable(),
  read_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type Notification = z.infer<typeof notificationSchema>;

const NOTIFICATION_SORTS = ['created_desc'] as const;
export type NotificationSort = (typeof NOTIFICATION_SORTS)[number];

export const notificationFilterSchema = z.object({
  /** true: unread only; false: read only; absent: both. */
  unread: boolParam.optional(),
  kinds: csv(notificationKindSchema).optional(),
  q: z.string().max(200).optional(),
});
export type NotificationFilter = z.infer<typeof notificationFilterSchema>;

function matchesNotificationFilter(n: Notification, f: NotificationFilter): boolean {
  if (f.unread !== undefined && (n.read_at === null) !== f.unread) return false;
  if (f.kinds && f.kinds.length > 0 && !f.kinds.includes(n.kind)) return false;
  return true;
}

const newestFirst = byDateThenId<Notification>('created_at', 'desc');

export const notificationEntity = defineEntity({
  name: 'notifications',
  schema: notificationSchema,
  mirror: { kind: 'own', indexes: [] },
  visibility: 'self',
  searchText: ['title', 'body'],
  query: {
    filter: notificationFilterSchema, sorts: NOTIFICATION_SORTS,
    matches: matchesNotificationFilter, compare: (_sort: NotificationSort) => newestFirst,
    referencedIds: (n: Notification) => presentIds(n.actor_id),
  },
  columns: columnsOf(notificationSchema, {
    created_at: { indexed: true },
  }),
});
