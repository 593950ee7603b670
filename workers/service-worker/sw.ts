/// <reference lib="webworker" />
import './zod-jitless.ts';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { drainOutbox, OUTBOX_SYNC_TAG, type LockManagerLike } from '../../sync/background-sync.ts';
import { systemClock } from '../../sync/ports.ts';
import { backgroundOutboxPorts } from '../background-outbox.ts';
import { SessionStore } from '../session-store.ts';
import { listenForPush } from './push.ts';

/**
 * The service worker (vite-plugin-pwa `injectManifest`, vite.config.ts): the app shell's
 * precache and routes, as the generated worker had them, plus the outbox's background delivery
 * (issue 26): on the `sync` event registered by the page (sync/background-sync.ts) it delivers
 * the waiting commands once no tab leads, with the stored session.
 */
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Parameters<typeof precacheAndRoute>[0] };

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Navigations get the app shell; API calls are never answered from a cache (the mirror is the offline store).
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/v1\//] }));
// Receipt OCR's engine and model: cache-first, filled by the first scan (or by `prefetch()` of
// useReceiptOcr while online). Not precached: every install would download ~4 MB that approvers
// and admins, who never scan, would not use, and precaching holds the app's own update until it
// is all fetched. The directory name is a content hash, so a cached file never goes stale; the
// expiration drops an older engine's files.
// pdf.js's wasm image decoders (build/pdf-assets.ts) go with them: only a scanned PDF page, read
// by that OCR, needs them.
registerRoute(
  /\/assets\/(?:ocr|pdfjs)-[0-9a-f]+\//,
  new CacheFirst({
    cacheName: 'ledgerline-ocr',
    plugins: [new ExpirationPlugin({ maxEntries: 12, purgeOnQuotaError: true }), new CacheableResponsePlugin({ statuses: [200] })],
  }),
);

// Issue 32: Web Push of the person's notifications (shown, and opened on click).
listenForPush(self);

// registerType 'prompt': a new version waits until the user reloads (update-prompt.tsx).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/**
 * How long one sync event may wait for the tab's lock and for the network. Chromium ends a sync
 * event after a few minutes; a delivery still waiting then fails the event, and the browser
 * fires it again later.
 */
const SYNC_BUDGET_MS = 150_000;

self.addEventListener('sync', (event) => {
  const e = event as SyncEvent;
  if (e.tag !== OUTBOX_SYNC_TAG) return;
  e.waitUntil(deliverInBackground());
});

async function deliverInBackground(): Promise<void> {
  const sessionStore = new SessionStore();
  try {
    const result = await drainOutbox(backgroundOutboxPorts({
      sessionStore,
      transport: (input, init) => fetch(input, init),
      clock: systemClock,
      baseUrl: self.location.origin,
      locks: (self.navigator as { locks?: LockManagerLike }).locks,
      onError: (error) => console.warn('background outbox', error),
    }), SYNC_BUDGET_MS);
    // Failing the event makes the browser fire it again later: still offline, or a tab held the
    // lock for the whole budget (that tab may close before it sends; a finished event is spent).
    if (result === 'waiting' || result === 'busy') throw new Error(`commands still wait (${result})`);
  } finally {
    sessionStore.close();
  }
}
