import { createRxDatabase, type RxCollection, type RxStorage } from 'rxdb';
import { requestTimeoutMs } from '../schema/platform.ts';
import { syncLockName, type DrainPorts, type DrainTarget, type LockManagerLike } from '../sync/background-sync.ts';
import { createHttpClient } from '../sync/http.ts';
import type { Clock, OptimisticPort, OutboxEntry, Transport } from '../sync/ports.ts';
import { mirrorStorage, OUTBOX_COLLECTION } from './db.ts';
import { RxOutboxStore } from './outbox-store.ts';
import { receiptStoreFor } from './receipt-store.ts';
import { isStoredBusiness, type SessionStore, type StoredBusinessSession } from './session-store.ts';

/**
 * The service worker's side of background delivery (sync/background-sync.ts): the stored
 * session (token, mirror name; the same `ledgerline-session` database the data worker reads, so
 * nothing more is stored for it) and, under the lock, the mirror's `outbox` collection opened on
 * its own (one RxDB collection: the service worker never loads the mirror's rows).
 *
 * No mirror rows are written here: a delivered command's entry is kept `done` with the server's
 * answer (the outbox's `keepDelivered`), and the next open confirms it as a tab would have
 * (workers/delivered-commands.ts), so the change shows offline until the feed brings the row.
 */
export interface BackgroundOutboxDeps {
  sessionStore: SessionStore;
  transport: Transport;
  clock: Clock;
  baseUrl: string;
  locks: LockManagerLike | undefined;
  /** The mirror's storage; Dexie over the browser's IndexedDB by default (tests: fake-indexeddb). */
  storage?: RxStorage<unknown, unknown>;
  onError?: (error: unknown) => void;
}

/** The next open confirms what was delivered (the entry keeps the answer); a refusal's rollback writes no rows. */
const NO_ROW_WRITES: OptimisticPort = { rollback: async () => undefined, confirm: async () => undefined };

export function backgroundOutboxPorts(deps: BackgroundOutboxDeps): DrainPorts {
  return {
    locks: deps.locks,
    clock: deps.clock,
    ...(deps.onError ? { onError: deps.onError } : {}),
    async find() {
      const stored = await deps.sessionStore.get();
      // Issue 31: a session on another surface has no mirror, so no outbox to drain.
      if (!isStoredBusiness(stored) || stored.expired) return null;
      return { lockName: syncLockName(stored.db_name), open: () => openTarget(deps, stored) };
    },
  };
}

async function openTarget(deps: BackgroundOutboxDeps, stored: StoredBusinessSession): Promise<DrainTarget> {
  const device = await deps.sessionStore.deviceId();
  const db = await createRxDatabase<{ outbox: RxCollection<OutboxEntry> }>({
    name: stored.db_name,
    storage: deps.storage ?? mirrorStorage(),
    multiInstance: true,
    closeDuplicates: true,
  });
  await db.addCollections({ outbox: OUTBOX_COLLECTION });
  let token: string | null = stored.token;
  const http = createHttpClient({
    baseUrl: deps.baseUrl,
    transport: deps.transport,
    clock: deps.clock,
    platform: 'web',
    timeoutMs: requestTimeoutMs('web'),
    device: () => device,
    session: { getToken: () => token, onUnauthorized: () => undefined },
  });
  return {
    store: new RxOutboxStore(db),
    http,
    optimistic: NO_ROW_WRITES,
    files: receiptStoreFor(stored.db_name),
    onUnauthorized() {
      token = null;
      // As the data worker does (worker-context.ts expireSession): the next open asks for sign-in.
      void deps.sessionStore.set({ ...stored, expired: true }).catch((e: unknown) => deps.onError?.(e));
    },
    close: async () => {
      await db.close();
    },
  };
}
