import { z } from 'zod';
import { produce } from 'immer';
import { defineCommand } from './define-command.ts';
import { markNotificationsRead, MAX_MARK_READ_IDS } from '../api/calls-notifications.ts';
import type { Notification } from '../entities/notification.ts';

/** A notification read at `at` (one already read keeps its moment, as the server does). */
export const applyRead = (row: Notification, at: string): Notification =>
  row.read_at ? row : produce(row, (d) => { d.read_at = at; });

/**
 * Issue 29: "mark read", offline too: the bell's count drops at once and the outbox sends
 * `PATCH /v1/auth/notifications/read` when online. The moment is stamped once when queued.
 */
export const notificationMarkRead = defineCommand({
  name: 'notification.markRead',
  args: z.object({ ids: z.array(z.uuid()).min(1).max(MAX_MARK_READ_IDS), read_at: z.iso.datetime({ offset: true }).optional() })
    .transform((a) => (a.read_at ? a : { ...a, read_at: new Date().toISOString() })),
  collection: 'notifications',
  entityIds: (a) => a.ids,
  call: markNotificationsRead,
  request: (a) => ({ body: { ids: a.ids } }),
  apply: (row, a) => applyRead(row, a.read_at ?? row.updated_at),
  confirm: 'change_seq',
});
