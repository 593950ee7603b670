import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './error-text.ts';

/** What a list call answers (handlers/bill-extras.ts): the rows, or a refusal (`offline`: nothing was sent). */
export type ListAnswer<T> =
  | { ok: true; rows: T[] }
  | { ok: false; offline?: true; error: { error_code: string; message: string } };

/**
 * A server-only list as a page shows it. `offline`: it cannot be read now (nothing of it is kept
 * on the device, so nothing is shown as if it were current); `error`: the server's refusal in the
 * catalogue's words; `ready` with `refreshing` while a reload is on its way (the rows stay).
 */
export type OnlineList<T> =
  | { state: 'loading' }
  | { state: 'offline' }
  | { state: 'error'; message: string }
  | { state: 'ready'; rows: T[]; refreshing: boolean };

type Answer<T> = { key: string; turn: number; value: ListAnswer<T> };

/**
 * A server-only list (bill pay extras' recurring bills, templates, vendor credits; accounting's
 * commits and rules): read from the server when
 * the page opens, again when `key` changes (another vendor's credits), when the connection comes
 * back, and on `reload()` (after a change the page made). Offline it answers `offline` at once.
 */
export function useOnlineList<T>(online: boolean, key: string, load: () => Promise<ListAnswer<T>>): { list: OnlineList<T>; reload(): void } {
  const [turn, setTurn] = useState(0);
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const latest = useRef(load);
  useEffect(() => {
    latest.current = load;
  });
  useEffect(() => {
    if (!online) return;
    let live = true;
    latest.current().then(
      (value) => live && setAnswer({ key, turn, value }),
      (err: unknown) => live && setAnswer({ key, turn, value: { ok: false, error: { error_code: '', message: err instanceof Error ? err.message : String(err) } } }),
    );
    return () => {
      live = false;
    };
  }, [online, key, turn]);
  const reload = useCallback(() => setTurn((n) => n + 1), []);

  let list: OnlineList<T>;
  if (!online) list = { state: 'offline' };
  else if (!answer || answer.key !== key) list = { state: 'loading' };
  else if (answer.value.ok) list = { state: 'ready', rows: answer.value.rows, refreshing: answer.turn !== turn };
  else if (answer.value.offline) list = { state: 'offline' };
  else list = { state: 'error', message: errorText(answer.value.error) };
  return { list, reload };
}
