/// <reference lib="webworker" />

/**
 * Issue 32: Web Push in the service worker. The server pushes each new notification of this
 * person (server/push/delivery.ts: `{title, body, path, tag}`, encrypted; the browser decrypts
 * it). The worker shows it, and a click focuses an open tab of the app on its path (or opens one).
 * Only an in-app path is followed (`/…`, never `//host` or a URL): a push cannot send the click
 * elsewhere.
 */
export type PushShown = { title: string; options: NotificationOptions & { data: { path: string } } };

const APP_NAME = 'Ledgerline';

/** A path inside the app, else the notifications page. */
export function safeAppPath(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || path.startsWith('//') || path.includes('\\') || path.length > 500) return '/notifications';
  return path;
}

/** What to show for a push's payload (JSON text); anything unreadable still says something true. */
export function pushNotification(text: string | null): PushShown {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === 'object') data = parsed as Record<string, unknown>;
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title.trim() ? data.title.slice(0, 200) : `${APP_NAME}: you have a new notification`;
  const body = typeof data.body === 'string' ? data.body.slice(0, 500) : '';
  const tag = typeof data.tag === 'string' ? data.tag.slice(0, 64) : undefined;
  return { title, options: { body, tag, icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', data: { path: safeAppPath(data.path) } } };
}

export function listenForPush(sw: ServiceWorkerGlobalScope): void {
  sw.addEventListener('push', (event) => {
    const shown = pushNotification(event.data ? event.data.text() : null);
    event.waitUntil(sw.registration.showNotification(shown.title, shown.options));
  });
  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = safeAppPath((event.notification.data as { path?: unknown } | null)?.path);
    event.waitUntil((async () => {
      const url = new URL(path, sw.location.origin).href;
      const tabs = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = tabs.find((c) => new URL(c.url).origin === sw.location.origin) as WindowClient | undefined;
      if (tab) {
        await tab.focus();
        await tab.navigate(url).catch(() => undefined);
        return;
      }
      await sw.clients.openWindow(url);
    })());
  });
}
