import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../lib/error-text.ts';

/** A settings section's online read: loading, refused (offline or the server's words), or its answer. */
export type Loaded<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; value: T };
type Answer<T> = ({ ok: true } & T) | { ok: false; error: { error_code?: string; message?: string } };

/** Reads once on mount (and on `reload`); `set` replaces the value after a save. */
export function useOnlineLoad<T extends object>(read: () => Promise<Answer<T>>) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const settle = useCallback((r: Answer<T>) => setLoaded(r.ok ? { state: 'ready', value: r } : { state: 'failed', message: errorText(r.error) }), []);
  const reload = useCallback(() => {
    setLoaded({ state: 'loading' });
    void read().then(settle);
  }, [read, settle]);
  useEffect(() => {
    let live = true;
    void read().then((r) => live && settle(r));
    return () => {
      live = false;
    };
  }, [read, settle]);
  const set = useCallback((value: T) => setLoaded({ state: 'ready', value }), []);
  return { loaded, reload, set };
}
