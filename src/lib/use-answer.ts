import { startTransition, useEffect, useState } from 'react';

/**
 * What `read` answers (a worker call), null until it has. Read on mount and again whenever an
 * item of `key` changes (what the read depends on: the client, a version…; `read` is taken from
 * that render). A failed read keeps the last answer; an answer that comes after unmount or after
 * a newer read started is dropped. The answer renders as a transition: in slices that yield to the
 * browser, after any input (issue 33: outside an event an update is one blocking task).
 */
export function useAnswer<T>(read: () => Promise<T>, key: readonly unknown[]): T | null {
  const [answer, setAnswer] = useState<T | null>(null);
  useEffect(() => {
    let live = true;
    void read().then(
      (a) => live && startTransition(() => setAnswer(a)),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` says what the read depends on
  }, key);
  return answer;
}
