import { useEffect, useRef, useState } from 'react';
import { toastError } from './toast-store.ts';

/**
 * A read named by `key` (what is asked) and re-run when `version` (the data) changes: null
 * until the answer for this key arrives; a re-read keeps the last answer on screen meanwhile.
 * A failed read is said in a toast (`what` could not be read) and never looks like an empty
 * answer; the next data change retries.
 */
export function useRead<T>(key: string, version: number, read: () => Promise<T>, what: string): T | null {
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
  const latest = useRef(read);
  useEffect(() => {
    latest.current = read;
  });
  useEffect(() => {
    let live = true;
    latest.current().then(
      (value) => live && setAnswer({ key, value }),
      (err: unknown) => live && toastError(`${what} could not be read: ${err instanceof Error ? err.message : String(err)}`),
    );
    return () => {
      live = false;
    };
  }, [key, version, what]);
  return answer?.key === key ? answer.value : null;
}
