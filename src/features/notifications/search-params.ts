import { z } from 'zod';
import type { NotificationKind } from '../../../schema/entities/notification.ts';
import { parseEachParam } from '../../lib/search-params.ts';
import { KIND_LABELS } from './notification-words.ts';

// The kinds from the words' record (typed complete over NotificationKind), not the entity's
// NOTIFICATION_KINDS: the route's parser is in the first load, the entity's definition is not.
const kinds = Object.keys(KIND_LABELS) as [NotificationKind, ...NotificationKind[]];

/** /notifications' URL state (§5 flat strings): Unread or All (the default), and one kind. */
export const notificationsSearchSchema = z.object({
  show: z.enum(['unread', 'all']).optional(),
  kind: z.enum(kinds).optional(),
});
export type NotificationsSearch = z.infer<typeof notificationsSearchSchema>;
export const parseNotificationsSearch = (raw: Record<string, unknown>): NotificationsSearch =>
  parseEachParam(notificationsSearchSchema, raw, { show: 'all' });
