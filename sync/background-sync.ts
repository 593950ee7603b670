import type { HttpClient } from './http.ts';
import type { Clock, LocalFilesPort, OptimisticPort, OutboxEntry, OutboxStore, SyncStatus } from './ports.ts';
import { createOutbox } from './outbox.ts';
import { nextEligible } from './outbox-machine.ts';

/**
 * Background delivery of the outbox (issue 26): the outbox drains with no tab open.
 *
 * The page registers a Background Sync (`OUTBOX_SYNC_TAG`) whenever commands wait; the service
 * worker's `sync` event then runs `drainOutbox`: the same `createOutbox` driver (the same reducer,
 * store and Idempotency-Keys) over the stored outbox, with the stored session's token. It first
 * takes the tab leader's Web Lock (`syncLockName`), so it never sends while a tab's engine does:
 * while a tab leads, the tab delivers and the worker waits for the lock; once every tab is closed
 * the lock is free and the worker delivers. A command is never sent by two deliverers at once, and
 * what one delivered is stored `done` with the server's answer (or removed, when there is nothing
 * to confirm) before the lock passes on: the next one never re-sends it (an entry left `sending`
 * is re-sent with its key, which the server replays), and the next open shows the change over
 * the mirror's older row until the feed brings the server's (workers/delivered-commands.ts).
 * Where Background Sync or Web Locks are missing (Firefox, Safari) nothing registers or runs.
 */
export const OUTBOX_SYNC_TAG = 'ledgerline-outbox';

/** The Web Lock a mirror's sync engine holds (the leader tab; the service worker while it delivers). */
export function syncLockName(dbName: string): string {
  return `ledgerline-sync-${dbName}`;
}

export interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, callback: () => Promise<T>): Promise<T>;
  /** Who holds and who waits (`navigator.locks.query()`): a tab waiting to lead makes the delivery yield. */
  query?(): Promise<{ pending?: { name?: string }[] }>;
}

/** What one background delivery needs, for the signed-in mirror. */
export interface DrainTarget {
  store: OutboxStore;
  http: HttpClient;
  optimistic: OptimisticPort;
  files?: LocalFilesPort;
  /** The server refused the token (401): the entries stay pending, the next open asks for sign-in. */
  onUnauthorized(): void;
  close(): Promise<void>;
}

export interface DrainPorts {
  locks: LockManagerLike | undefined;
  clock: Clock;
  /** The stored session's mirror (its lock name) or null when nobody is signed in (or it expired). */
  find(): Promise<{ lockName: string; open(): Promise<DrainTarget> } | null>;
  onError?: (error: unknown) => void;
}

/**
 * `drained`: nothing waits that the outbox would send by itself (a refused command waits for the user); `idle`: nobody signed in, or no Web Locks; `busy`: a tab kept
 * the lock for the whole budget (it delivers); `yielded`: a tab opened and asked for the lock
 * while commands still waited (its engine goes on with them: a tab never waits on a background
 * delivery's backoff); `signed_out`: 401, entries left pending; `waiting`: commands still wait
 * (no network): the browser should try again later.
 */
export type DrainResult = 'drained' | 'idle' | 'busy' | 'yielded' | 'signed_out' | 'waiting';

/** How often a delivery waiting out a backoff looks whether it is done. */
const POLL_MS = 1_000;

/**
 * Something the outbox will send by itself, now or after its backoff: not an entry held behind a
 * refused one of the same row (that waits for the user, in a tab).
 */
const sendable = (entries: readonly OutboxEntry[]) => nextEligible(entries, Number.POSITIVE_INFINITY) !== null;

export async function drainOutbox(ports: DrainPorts, budgetMs: number): Promise<DrainResult> {
  const { clock, locks } = ports;
  if (!locks) return 'idle';
  const found = await ports.find();
  if (!found) return 'idle';
  const deadline = clock.now() + budgetMs;
  const giveUp = new AbortController();
  let held = false;
  clock.sleep(budgetMs, giveUp.signal).then(() => {
    if (!held) giveUp.abort(new Error('lock wait over'));
  }, () => undefined);
  try {
    return await locks.request(found.lockName, { signal: giveUp.signal }, async () => {
      held = true;
      const tabWaits = async () => {
        const state = await locks.query?.().catch(() => null);
        return state?.pending?.some((l) => l.name === found.lockName) ?? false;
      };
      if (await tabWaits()) return 'yielded';
      const target = await found.open();
      try {
        return await deliverUntil(target, ports, deadline, tabWaits);
      } finally {
        await target.close();
      }
    });
  } catch (error) {
    if (giveUp.signal.aborted && !held) return 'busy';
    throw error;
  } finally {
    if (!giveUp.signal.aborted) giveUp.abort();
  }
}

/** Runs the outbox until nothing waits, the session is refused, a tab wants to lead, or the deadline passes. */
async function deliverUntil(
  target: DrainTarget, ports: DrainPorts, deadline: number, tabWaits: () => Promise<boolean>,
): Promise<DrainResult> {
  const { clock } = ports;
  const outbox = createOutbox({
    store: target.store, http: target.http, optimistic: target.optimistic, clock,
    session: { onUnauthorized: () => target.onUnauthorized() },
    // No mirror rows here: the next open confirms what was delivered (OutboxEntry.answer).
    keepDelivered: true,
    ...(target.files ? { files: target.files } : {}),
    ...(ports.onError ? { onError: ports.onError } : {}),
  });
  outbox.kick();
  try {
    for (;;) {
      await outbox.whenIdle();
      if (outbox.paused()) return 'signed_out';
      if (!sendable(outbox.entries())) return 'drained';
      if (await tabWaits()) return 'yielded';
      const left = deadline - clock.now();
      if (left <= 0) return 'waiting';
      // The outbox retries on its own backoff timer; look again shortly.
      await clock.sleep(Math.min(POLL_MS, left));
      // After a store error the outbox waits for a kick; otherwise this only looks again.
      outbox.kick();
    }
  } finally {
    outbox.pause('stopped');
    await outbox.whenIdle();
  }
}

export interface SyncRegistrationLike {
  sync?: { register(tag: string): Promise<void> };
}

/**
 * The page's side: registers the background sync when commands start waiting (the count goes
 * from none to some) and again when the page is hidden with commands waiting (the registration
 * the browser fired while the tab was open may be spent). `hidden()` comes from both
 * `visibilitychange` to hidden (mobile browsers often never fire pagehide) and `pagehide`; one
 * spell of being hidden registers once, whichever fire (`visible()` ends the spell).
 * `ready`: the service worker registration (navigator.serviceWorker.ready); absent or without
 * `sync`: nothing happens.
 */
export function backgroundSyncRegistrar(ready: (() => Promise<SyncRegistrationLike>) | undefined) {
  let waiting = false;
  /** Registered since the page was last hidden (while it stays hidden, again is no new work). */
  let registeredHidden = false;
  const register = () => {
    if (!ready) return;
    void ready().then((reg) => reg.sync?.register(OUTBOX_SYNC_TAG)).catch(() => undefined);
  };
  return {
    status(status: SyncStatus | null) {
      const now = (status?.pending ?? 0) > 0;
      if (now && !waiting) register();
      waiting = now;
    },
    hidden() {
      if (!waiting || registeredHidden) return;
      registeredHidden = true;
      register();
    },
    visible() {
      registeredHidden = false;
    },
  };
}
