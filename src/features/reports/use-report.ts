import { useEffect, useRef, useState } from 'react';
import type { ReportQuery } from '../../../schema/reports.ts';
import type { ReportAnswer } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';

export type ReportState =
  | { state: 'loading' }
  | { state: 'ready'; answer: ReportAnswer }
  | { state: 'error'; message: string };

/** While the mirror changes quickly (a first download, a bulk coding), a report re-runs at most this often. */
const LIVE_INTERVAL_MS = 750;

/**
 * A report from the worker, live: asked again when the query changes (at once) or the mirror's
 * data changes (at most every 750 ms, the last change always answered). While the data changes,
 * the last answer stays on screen until the next one arrives, so a live chart never blinks.
 */
export function useReport(client: DataClient, query: ReportQuery | null, version: number): ReportState {
  const key = query ? JSON.stringify(query) : '';
  const [result, setResult] = useState<{ key: string; state: ReportState } | null>(null);
  const lastRun = useRef(0);
  const latest = useRef(query);
  useEffect(() => {
    latest.current = query;
  });

  const sameQuery = result?.key === key;
  useEffect(() => {
    if (!key) return;
    let live = true;
    const run = () => {
      const q = latest.current;
      if (!q) return;
      lastRun.current = Date.now();
      client.report(q).then(
        (answer) => live && setResult({ key, state: { state: 'ready', answer } }),
        (err: unknown) => live && setResult({ key, state: { state: 'error', message: err instanceof Error ? err.message : String(err) } }),
      );
    };
    // A new query runs now; a data change within the interval waits for its end.
    const wait = sameQuery ? Math.max(0, lastRun.current + LIVE_INTERVAL_MS - Date.now()) : 0;
    const timer = window.setTimeout(run, wait);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // `sameQuery` only decides the delay of this run; the run depends on the query and the data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key, version]);

  // Another query's answer would be read with this query's labels: wait (a few ms) for ours.
  if (!key || !result || result.key !== key) return { state: 'loading' };
  return result.state;
}
