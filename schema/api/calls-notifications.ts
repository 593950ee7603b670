import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { notificationKindSchema, notificationSchema, notificationFilterSchema, NOTIFICATION_KINDS } from '../entities/notification.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { moneyOf } from '../money.ts';

/**
 * Issue 29, the notifications centre (§7 "Integrations and other": notifications). The rows are
 * mirrored (schema/entities/notification.ts): the app's bell and list read the mirror; these calls
 * serve other clients and the app's "mark read" command. Each person reads and marks only their
 * own: another person's id is unknown (404 REQUEST_7004), as another business's is.
 */
const scopes = { scopes: ['default'] } as const;
const group = callGroup('/v1/auth/notifications', scopes);

/** The most ids one "mark read" names (the app's "Mark all read" sends the unread ids it holds, in chunks). */
export const MAX_MARK_READ_IDS = 500;

/** Newest first; `unread_count` is the caller's unread total whatever the filter. */
export const listNotifications = group('notifications.list', 'GET', '', {
  query: pageQuerySchema.extend(notificationFilterSchema.shape),
  response: paginatedSchema(notificationSchema).extend({ unread_count: z.number().int().nonnegative() }),
});

/**
 * Marks the caller's notifications read (idempotent: one already read keeps its `read_at`).
 * Answers the rows and the last change seq written (0 when nothing changed), so the outbox
 * confirms by seq.
 */
export const markNotificationsRead = group('notifications.markRead', 'PATCH', '/read', {
  body: z.object({ ids: z.array(z.uuid()).min(1).max(MAX_MARK_READ_IDS) }),
  response: z.object({ data: z.array(notificationSchema), change_seq: z.number().int().nonnegative() }),
});

/** Per kind: whether it is also mailed (true unless the person muted it). */
export const notificationPreferencesSchema = z.object({
  email: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.boolean()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodBoolean>),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const getNotificationPreferences = group('notifications.preferences.get', 'GET', '/preferences', {
  response: notificationPreferencesSchema,
});
/** Changes only the kinds named. */
export const putNotificationPreferences = group('notifications.preferences.put', 'PUT', '/preferences', {
  body: z.object({ email: z.partialRecord(notificationKindSchema, z.boolean()) }),
  response: notificationPreferencesSchema,
});

/**
 * §7 "PATCH admin transaction notify threshold" (admins): every admin gets a `large_transaction`
 * notification for a card transaction at or above `threshold` in its currency (other currencies
 * are not compared). null switches it off.
 */
export const notifyThresholdSchema = z.object({
  threshold: moneyOf(z.number().int().positive().max(1_000_000_000)).nullable(),
});
export type NotifyThreshold = z.infer<typeof notifyThresholdSchema>;

const admin = callGroup('/v1/auth/admin/transaction-notify-threshold', scopes);
export const getNotifyThreshold = admin('admin.notifyThreshold.get', 'GET', '', { response: notifyThresholdSchema });
export const patchNotifyThreshold = admin('admin.notifyThreshold.patch', 'PATCH', '', { body: notifyThresholdSchema, response: notifyThresholdSchema });

export const NOTIFICATION_CALLS = [
  listNotifications, markNotificationsRead, getNotificationPreferences, putNotificationPreferences, getNotifyThreshold, patchNotifyThreshold,
] as const;
