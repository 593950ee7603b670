import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Button } from '../../components/button.tsx';
import { errorText } from '../../lib/error-text.ts';

type Failure = { ok: false; error: { error_code?: string; message?: string } };
/** A settings section's online read: loading, refused (offline or the server's words), or its answer. */
export type Loaded<V> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; value: V };

/** Reads once on mount (and on `reload`); `set` replaces the value after a save. */
export function useOnlineLoad<F extends () => Promise<{ ok: true } | Failure>>(read: F) {
  // The worker's methods answer a union of promises (one per outcome): awaited, one union.
  type R = Awaited<ReturnType<F>>;
  type V = Extract<R, { ok: true }>;
  const [loaded, setLoaded] = useState<Loaded<V>>({ state: 'loading' });
  const settle = useCallback((r: R) => setLoaded(r.ok ? { state: 'ready', value: r as V } : { state: 'failed', message: errorText((r as Failure).error) }), []);
  const reload = useCallback(() => {
    setLoaded({ state: 'loading' });
    void read().then((r) => settle(r as R));
  }, [read, settle]);
  useEffect(() => {
    let live = true;
    void read().then((r) => live && settle(r as R));
    return () => {
      live = false;
    };
  }, [read, settle]);
  const set = useCallback((value: V) => setLoaded({ state: 'ready', value }), []);
  return { loaded, reload, set };
}

/** Loading, or the refusal with Try again; the children once read. */
export function LoadState<T>({ loaded, what, reload, children }: { loaded: Loaded<T>; what: string; reload(): void; children: (value: T) => ReactNode }) {
  if (loaded.state === 'loading') return <p className="muted" role="status">Loading {what}…</p>;
  if (loaded.state === 'failed') {
    return (
      <div className="notice notice-error" role="alert">
        <span>{loaded.message}</span>{' '}
        <Button size="sm" onClick={reload}>
          Try again
        </Button>
      </div>
    );
  }
  return <>{children(loaded.value)}</>;
}
