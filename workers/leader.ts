/**
 * Leader election between tabs with the Web Locks API: every tab's worker asks for the same
 * lock; the browser grants it to one at a time and hands it over when that tab closes or
 * crashes (a lock dies with its holder, so there is no stale-leader timeout to tune). Only the
 * holder runs the sync engine; the others read the shared IndexedDB and write outbox entries.
 */
export interface LeaderElector {
  /**
   * Competes for leadership of `name`. `onLeader` runs once the lock is held, with a signal
   * that aborts when leadership ends. Returns a function that withdraws (and releases).
   */
  elect(name: string, onLeader: (signal: AbortSignal) => void): () => void;
}

interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

export function webLocksElector(locks: LockManagerLike | undefined = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks): LeaderElector {
  if (!locks) return soleLeader;
  return {
    elect(name, onLeader) {
      const withdraw = new AbortController();
      locks
        .request(name, { signal: withdraw.signal }, async () => {
          if (withdraw.signal.aborted) return;
          onLeader(withdraw.signal);
          // Hold the lock until withdrawn; returning releases it to the next tab.
          await new Promise<void>((resolve) => withdraw.signal.addEventListener('abort', () => resolve(), { once: true }));
        })
        .catch(() => undefined); // AbortError: withdrawn while still waiting
      return () => withdraw.abort();
    },
  };
}

/** No Web Locks (Node tests, very old browsers): this context is the only one, so it leads. */
export const soleLeader: LeaderElector = {
  elect(_name, onLeader) {
    const withdraw = new AbortController();
    queueMicrotask(() => {
      if (!withdraw.signal.aborted) onLeader(withdraw.signal);
    });
    return () => withdraw.abort();
  },
};
