import {
  getNotificationPreferences, getNotifyThreshold, listNotifications, markNotificationsRead, patchNotifyThreshold, putNotificationPreferences,
} from '../../schema/api/calls-notifications.ts';
import { getPreferences, listOwnNotifications, markOwnRead, putPreferences } from '../domain/notifications/centre.ts';
import { getNotifyThreshold as readThreshold, setNotifyThreshold } from '../domain/notifications/threshold.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * The notifications centre (issue 29, NOTIFICATION_CALLS; rules in domain/notifications/). The
 * list and "mark read" are the caller's own only. PATCH /read and PATCH of the threshold run in
 * register's transaction (Idempotency-Key); PUT /preferences is one upsert statement.
 */
export const notificationHandlers = {
  [listNotifications.id]: async (ctx) => {
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    return ok(await listOwnNotifications(ctx.db, actorOf(ctx).user, { filter, pageSize: page_size, start, includeCount: include_count === true }));
  },

  [markNotificationsRead.id]: async (ctx) => ok(await markOwnRead(ctx.db, actorOf(ctx).user, ctx.input.body.ids, new Date(ctx.deps.now()))),

  [getNotificationPreferences.id]: async (ctx) => ok(await getPreferences(ctx.db, actorOf(ctx).user)),

  [putNotificationPreferences.id]: async (ctx) => ok(await putPreferences(ctx.db, actorOf(ctx).user, ctx.input.body.email)),

  [getNotifyThreshold.id]: async (ctx) => ok(await readThreshold(ctx.db, actorOf(ctx).user)),

  [patchNotifyThreshold.id]: async (ctx) => ok(await setNotifyThreshold(ctx.db, actorOf(ctx).user, ctx.input.body)),
} satisfies DomainHandlers;
