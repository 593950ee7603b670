import {
  getNotificationPreferences, getNotifyThreshold, patchNotifyThreshold, putNotificationPreferences,
  type NotificationPreferences, type NotifyThreshold,
} from '../../schema/api/calls-notifications.ts';
import type { NotificationKind } from '../../schema/entities/notification.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: the preferences and the threshold live on the server. */
export const NOTIFICATION_SETTINGS_OFFLINE = offlineFailure('You’re offline. Notification settings need a connection: nothing was sent.');

/**
 * Issue 29, Settings → Notifications (schema/api/calls-notifications.ts): the person's "email me"
 * switch per kind, and the admins' notify threshold for large card transactions. Online only; the
 * notifications themselves are mirrored and marked read through the outbox (`notification.markRead`).
 */
export const NOTIFICATION_SETTINGS_CALLS = onlineDomain(NOTIFICATION_SETTINGS_OFFLINE, {
  notificationPreferences: via(getNotificationPreferences, () => ({}), (preferences: NotificationPreferences) => ({ preferences })),
  saveNotificationPreferences: via(putNotificationPreferences, (email: Partial<Record<NotificationKind, boolean>>) => ({ body: { email } }),
    (preferences: NotificationPreferences) => ({ preferences })),
  notifyThreshold: via(getNotifyThreshold, () => ({}), (r: NotifyThreshold) => ({ threshold: r.threshold })),
  saveNotifyThreshold: via(patchNotifyThreshold, (threshold: NotifyThreshold['threshold']) => ({ body: { threshold } }), (r: NotifyThreshold) => ({ threshold: r.threshold })),
});

export type NotificationSettingsApi = OnlineApi<typeof NOTIFICATION_SETTINGS_CALLS>;

export const notificationSettingsHandlers = (port: OnlinePort): NotificationSettingsApi => bindDomain(port, NOTIFICATION_SETTINGS_CALLS);
