/**
 * Issue 31: the console's last answers kept on this device (a small IndexedDB store, not the
 * mirror), by identity, so a list read online is shown offline with the time it was read.
 * Best effort: a browser without IndexedDB (or a private window refusing it) keeps nothing.
 */
import { errorText } from '../../../lib/error-text.ts';
import type { OnlineFailure } from '../../../../workers/contracts/views.ts';

const DB = 'ledgerline-console';
const STORE = 'answers';

export interface Kept<T> {
  value: T;
  at: number;
}

function open(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
  });
}

export async function keep<T>(identityId: string, key: string, value: T, at = Date.now()): Promise<void> {
  const db = await open();
  if (!db) return;
  await new Promise<void>((resolve) => {
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put({ value, at } satisfies Kept<T>, `${identityId}:${key}`);
    tx.oncomplete = tx.onerror = tx.onabort = () => resolve();
  });
  db.close();
}

export async function kept<T>(identityId: string, key: string): Promise<Kept<T> | null> {
  const db = await open();
  if (!db) return null;
  const row = await new Promise<Kept<T> | null>((resolve) => {
    const req = db.transaction(STORE, 'readonly').objectStore(STORE).get(`${identityId}:${key}`);
    req.onsuccess = () => resolve((req.result as Kept<T> | undefined) ?? null);
    req.onerror = () => resolve(null);
  });
  db.close();
  return row;
}

/** A console list as the page shows it: read now, or the last kept with the time it was read, or why neither. */
export type KeptRead<T> = { rows: T; at: number; offline: boolean } | { message: string };

/**
 * Reads a list online and keeps it on this device under `key`; when the read fails, the last kept
 * answer with its time (shown as "as of"); with none, why: `unread` offline, the server's words else.
 */
export async function readKept<T>(
  identityId: string, key: string, read: () => Promise<{ ok: true; rows: T } | OnlineFailure>, unread: string,
): Promise<KeptRead<T>> {
  const r = await read();
  if (r.ok) {
    const at = Date.now();
    void keep(identityId, key, r.rows, at);
    return { rows: r.rows, at, offline: false };
  }
  const last = await kept<T>(identityId, key);
  if (last) return { rows: last.value, at: last.at, offline: true };
  return { message: 'offline' in r ? unread : errorText(r.error) };
}
