import { useCallback, useState, useSyncExternalStore } from 'react';

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
 * A reader of one slice that remembers its last answer: the same state read with the same
 * selector answers the same value (so a selector that builds a new object does not make React
 * see a change on every read); a new state, or a new selector (one that closes over props that
 * changed), reads again. Keyed on the state alone, a selector whose props changed while the store
 * did not kept answering what the old one saw (the first-mirror notice stayed hidden).
 */
export function sliceReader<T, S>(): (state: T, select: (state: T) => S) => S {
  let last: { state: T; select: (state: T) => S; value: S } | null = null;
  return (state, select) => {
    if (last?.state === state && last.select === select) return last.value;
    const value = select(state);
    last = { state, select, value };
    return value;
  };
}

/** Reads a slice of the store (`sliceReader`: cached per state and selector). */
export function useStore<T, S>(store: Store<T>, select: (state: T) => S): S {
  const [read] = useState(sliceReader<T, S>);
  const getSnapshot = useCallback(() => read(store.get(), select), [read, store, select]);
  return useSyncExternalStore(store.subscribe, getSnapshot, getSnapshot);
}
