import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * A minimal external store for app-wide state that React reads with useSyncExternalStore.
 * (The worker holds the data; this holds only what the shell shows about it.)
 */
export interface Store<T> {
  get(): T;
  set(update: Partial<T> | ((prev: T) => Partial<T>)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Reads a slice of the store. The slice is cached per store state, so a selector that builds
 * a new object (e.g. progress numbers) does not make React see a change on every read.
 */
export function useStore<T, S>(store: Store<T>, select: (state: T) => S): S {
  const cache = useRef<{ state: T; value: S } | null>(null);
  const getSnapshot = useCallback(() => {
    const state = store.get();
    if (cache.current?.state === state) return cache.current.value;
    const value = select(state);
    cache.current = { state, value };
    return value;
  }, [store, select]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
