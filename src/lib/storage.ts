import { useEffect, useState } from 'react';

/**
 * Storage persistence (issue 8). Without it the browser may evict the mirror and the outbox
 * (unsent edits included) under storage pressure. `navigator.storage` is a window API (workers
 * may lack `persist`), so the main thread asks, once per page after the first successful
 * sign-in (`requestPersistenceOnce`); Settings → Offline data reads `storageInfo` /
 * `useStorageInfo` (persisted, usage, quota).
 */
export type StorageManagerLike = Pick<StorageManager, 'persisted' | 'persist' | 'estimate'>;

export interface StorageInfo {
  /** Whether the browser promised not to evict this origin's data (null: not supported). */
  persisted: boolean | null;
  /** Bytes used and available to this origin (null: not supported). */
  usage: number | null;
  quota: number | null;
}

const storageOf = (nav: { storage?: Partial<StorageManagerLike> } | undefined): Partial<StorageManagerLike> | undefined => nav?.storage;

/** Asks for persistent storage unless already granted; resolves with whether it is persisted. */
export async function requestPersistence(nav: { storage?: Partial<StorageManagerLike> } | undefined = globalThis.navigator): Promise<boolean | null> {
  const storage = storageOf(nav);
  if (!storage?.persisted || !storage.persist) return null;
  try {
    if (await storage.persisted()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

/** A `requestPersistence` that asks at most once (per page: call it on every sign-in). */
export function persistenceRequester(nav?: { storage?: Partial<StorageManagerLike> }): () => Promise<boolean | null> {
  let asked: Promise<boolean | null> | null = null;
  return () => (asked ??= requestPersistence(nav ?? globalThis.navigator));
}

/** Persisted flag and usage / quota, each null where the browser does not say. */
export async function storageInfo(nav: { storage?: Partial<StorageManagerLike> } | undefined = globalThis.navigator): Promise<StorageInfo> {
  const storage = storageOf(nav);
  const [persisted, estimate] = await Promise.all([
    storage?.persisted ? storage.persisted().catch(() => null) : Promise.resolve(null),
    storage?.estimate ? storage.estimate().catch(() => null) : Promise.resolve(null),
  ]);
  return { persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
}

/** For Settings → Offline data: the storage info, re-read when `version` changes (null until read). */
export function useStorageInfo(version: unknown = 0, nav?: { storage?: Partial<StorageManagerLike> }): StorageInfo | null {
  const [info, setInfo] = useState<StorageInfo | null>(null);
  useEffect(() => {
    let live = true;
    void storageInfo(nav ?? globalThis.navigator).then((i) => {
      if (live) setInfo(i);
    });
    return () => {
      live = false;
    };
  }, [version, nav]);
  return info;
}

const BYTES = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** 1,234,567 → "1.2 MB" (decimal units, as browsers report quota). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${BYTES.format(value)} ${units[unit]}`;
}
