/**
 * While a command's durable write is in flight, leaving the page could lose the edit (the
 * outbox entry is not in IndexedDB yet and nothing shows it). The page holds a `beforeunload`
 * guard exactly then: registered when the first write starts, removed when the last settles.
 */
export interface UnloadTarget {
  addEventListener(type: 'beforeunload', listener: (e: BeforeUnloadEvent) => void): void;
  removeEventListener(type: 'beforeunload', listener: (e: BeforeUnloadEvent) => void): void;
}

export interface WriteGuard {
  /** Holds the guard until `write` settles; returns it unchanged. */
  track<T>(write: Promise<T>): Promise<T>;
  readonly inFlight: number;
}

export function createWriteGuard(target: UnloadTarget): WriteGuard {
  let inFlight = 0;
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    e.preventDefault();
    // Older browsers show the prompt only when returnValue is set.
    e.returnValue = '';
  };
  const settle = () => {
    inFlight--;
    if (inFlight === 0) target.removeEventListener('beforeunload', onBeforeUnload);
  };
  return {
    track(write) {
      if (inFlight++ === 0) target.addEventListener('beforeunload', onBeforeUnload);
      write.then(settle, settle);
      return write;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

/** The data client with its command calls (`run`, `codeTransactions`) held under the guard. */
export function guardCommands<C extends object>(client: C, guard: WriteGuard): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if ((prop === 'run' || prop === 'codeTransactions') && typeof value === 'function') {
        // Called as got (a Comlink method proxy needs no `this`).
        const call = value as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => guard.track(call(...args));
      }
      return value;
    },
  });
}
