import { describe, expect, it } from 'vitest';
import { OUTBOX_SYNC_TAG } from '../sync/background-sync.ts';
import type { SyncStatus } from '../sync/ports.ts';
import { flush } from '../sync/testing.ts';
import { watchBackgroundSync } from './background-sync-client.ts';

/** A page: its service worker registration (recording Background Sync registrations), events on window and document. */
function fakePage() {
  const tags: string[] = [];
  const listeners = new Map<string, (() => void)[]>();
  const on = (type: string, fn: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]);
  const fire = (type: string) => listeners.get(type)?.forEach((fn) => fn());
  const document = { visibilityState: 'visible', addEventListener: on };
  const win = {
    navigator: { serviceWorker: { ready: Promise.resolve({ sync: { register: async (tag: string) => void tags.push(tag) } }) } },
    document,
    addEventListener: on,
  };
  const hide = () => {
    document.visibilityState = 'hidden';
    fire('visibilitychange');
  };
  const show = () => {
    document.visibilityState = 'visible';
    fire('visibilitychange');
  };
  return { win, tags, hide, show, pagehide: () => fire('pagehide') };
}

const waiting = (pending: number) => ({ status: { pending } as SyncStatus });

/** The app store as far as the watcher reads it. */
function createStore(initial: { status: SyncStatus }) {
  let state = initial;
  const listeners: (() => void)[] = [];
  return {
    get: () => state,
    subscribe: (fn: () => void) => listeners.push(fn),
    set(next: { status: SyncStatus }) {
      state = next;
      listeners.forEach((fn) => fn());
    },
  };
}

describe('watchBackgroundSync (the page registers the outbox sync)', () => {
  it('registers when the page is hidden with commands waiting, also when pagehide never comes (mobile)', async () => {
    const page = fakePage();
    const store = createStore(waiting(0));
    watchBackgroundSync(store, page.win);
    page.hide();
    await flush();
    expect(page.tags).toEqual([]);
    store.set(waiting(2));
    await flush();
    expect(page.tags).toEqual([OUTBOX_SYNC_TAG]);
    page.hide();
    await flush();
    expect(page.tags).toEqual([OUTBOX_SYNC_TAG, OUTBOX_SYNC_TAG]);
  });

  it('visibilitychange then pagehide register once; hidden again after being shown registers again', async () => {
    const page = fakePage();
    watchBackgroundSync(createStore(waiting(1)), page.win);
    await flush();
    expect(page.tags).toHaveLength(1);
    page.hide();
    page.pagehide();
    await flush();
    expect(page.tags).toHaveLength(2);
    page.show();
    page.pagehide();
    page.hide();
    await flush();
    expect(page.tags).toHaveLength(3);
  });
});
