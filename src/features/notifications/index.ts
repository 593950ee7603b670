import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseNotificationsSearch } from './search-params.ts';

export { NotificationBell } from './notification-bell.tsx';

/**
 * Issue 29, the notifications centre: /notifications (everyone, from the mirror, offline too).
 * The shell shows `NotificationBell` in its top bar; Settings → Notifications is
 * `notification-settings.tsx` (imported by the settings page straight from its file).
 */
export function notificationsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./notifications-page.tsx'), 'NotificationsPage', { title: 'Notifications', className: 'page notifications-page' });
  return [pageRoute(parent, '/notifications', page, { search: parseNotificationsSearch })] as const;
}

/** No main-navigation entry: the bell is the way in (every page has it). */
export const notificationsNav: readonly NavItem[] = [];
