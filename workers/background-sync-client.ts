import { backgroundSyncRegistrar, type SyncRegistrationLike } from '../sync/background-sync.ts';
import type { SyncStatus } from '../sync/ports.ts';

/** The app's store as far as this needs it: the latest sync status and its changes. */
interface StatusSource {
  get(): { status: SyncStatus | null };
  subscribe(listener: () => void): unknown;
}

interface WindowLike {
  navigator: { serviceWorker?: { ready: Promise<unknown> } };
  document: { visibilityState: string; addEventListener(type: 'visibilitychange', listener: () => void): void };
  addEventListener(type: 'pagehide', listener: () => void): void;
}

/**
 * Main-thread side of background delivery (issue 26; like telemetry-client.ts, it runs in the
 * page): while commands wait (the sync status counts them), a Background Sync is registered so
 * the service worker delivers them after the app is closed (sync/background-sync.ts); again when
 * the page goes away with commands waiting: hidden (`visibilitychange`, which mobile browsers fire
 * where they often skip pagehide) or `pagehide`, once for both. No service worker or no
 * Background Sync: nothing.
 */
export function watchBackgroundSync(store: StatusSource, win: WindowLike): void {
  const sw = win.navigator.serviceWorker;
  const registrar = backgroundSyncRegistrar(sw ? () => sw.ready as Promise<SyncRegistrationLike> : undefined);
  registrar.status(store.get().status);
  store.subscribe(() => registrar.status(store.get().status));
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'hidden') registrar.hidden();
    else registrar.visible();
  });
  win.addEventListener('pagehide', () => registrar.hidden());
}
