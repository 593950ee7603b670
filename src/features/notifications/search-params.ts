import { z } from 'zod';
import { parseEachParam } from '../../lib/search-params.ts';
import type { NotificationKind } from '../../../schema/entities/notification.ts';

/** /notifications' URL state (§5 flat strings): Unread or All (the default), and one kind. */
export const notificationsSearchSchema = z.object({
  show: z.enum(['unread', 'all']).optional(),
  // Shaped here, checked against the kinds by the page (`knownKind`): the entity's list and the
  // kinds' words stay out of the first load, where this parser is.
  kind: z.string().regex(/^[a-z_]{1,40}$/).optional(),
});
export type NotificationsSearch = z.infer<typeof notificationsSearchSchema>;
export const parseNotificationsSearch = (raw: Record<string, unknown>): NotificationsSearch =>
  parseEachParam(notificationsSearchSchema, raw, { show: 'all' });

/** The URL's kind when it is one (an unknown one filters nothing rather than everything). */
export const knownKind = (kind: string | undefined, kinds: Readonly<Record<NotificationKind, unknown>>): NotificationKind | undefined =>
  kind !== undefined && Object.hasOwn(kinds, kind) ? (kind as NotificationKind) : undefined;
