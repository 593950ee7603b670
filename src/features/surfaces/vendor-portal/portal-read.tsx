import { useCallback, useEffect, useState } from 'react';
import { useAppState } from '../../../data-access/data-context.tsx';
import type { OnlineFailure, PortalRead } from '../../../../workers/api.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatLocalDateTime } from '../../../lib/format.ts';

/** A read's state on a page: loading, its answer (maybe the last one, offline), or why not. */
export type ReadState<T> = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'read'; data: T; read_at: string; offline: boolean };

/** Reads once and again on `reload()`; offline shows the worker's last answer with its time. */
export function usePortalRead<T>(read: () => Promise<PortalRead<T>>, deps: readonly unknown[]): [ReadState<T>, () => void] {
  const [state, setState] = useState<ReadState<T>>({ kind: 'loading' });
  const [n, setN] = useState(0);
  const online = useAppState((s) => s.online);
  useEffect(() => {
    let live = true;
    void read().then((r) => {
      if (!live) return;
      setState(r.ok ? { kind: 'read', data: r.data, read_at: r.read_at, offline: r.offline } : { kind: 'failed', message: failureText(r) });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, n, online]);
  return [state, useCallback(() => setN((x) => x + 1), [])];
}

const failureText = (r: OnlineFailure) => ('offline' in r && r.offline ? 'You’re offline and this page was not read on this device yet.' : errorText(r.error));

/** `what` names what the page waits for ("your payments"). */
export function ReadNote({ state, what }: { state: ReadState<unknown>; what: string }) {
  if (state.kind === 'loading') return <p className="muted" role="status">{`Loading ${what}…`}</p>;
  if (state.kind === 'failed') return <p className="notice notice-error" role="alert">{state.message}</p>;
  if (state.offline) return <p className="notice notice-warn" role="status">You’re offline. Showing what was read at {formatLocalDateTime(state.read_at)}.</p>;
  return null;
}
