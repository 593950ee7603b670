import { lazy, Suspense, useRef, useState } from 'react';
import { badgeText, bellLabel } from './bell-words.ts';
import { useUnreadCount } from './use-unread-count.ts';

// The panel's list, words and commands load on the first open: the bell itself is in the first load.
// Through the page's module (which re-exports it): one lazy chunk for both, one preload list in the entry.
const NotificationsPanel = lazy(() => import('./notifications-page.tsx').then((m) => ({ default: m.NotificationsPanel })));

export const PANEL_ID = 'notifications-panel';

/**
 * Issue 29: the bell in the shell's top bar (desktop and phone) with the unread count from the
 * mirror (offline too, live on every data change), named "Notifications, 3 unread" (99+ at most).
 * Opens the panel of the newest notifications.
 */
export function NotificationBell() {
  const unread = useUnreadCount() ?? 0;
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const badge = badgeText(unread);
  const label = bellLabel(unread);
  return (
    <div className="popover-anchor ntf-anchor" ref={anchor}>
      <button
        type="button"
        className="ntf-bell"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={open ? PANEL_ID : undefined}
        data-testid="notification-bell"
        data-unread={unread}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {badge && (
          <span className="ntf-badge" aria-hidden="true">
            {badge}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={<div id={PANEL_ID} className="popover ntf-panel" role="region" aria-label="Notifications" aria-busy="true" />}>
          <NotificationsPanel id={PANEL_ID} anchor={anchor} unread={unread} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
