import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { toastError } from '../toast-store.ts';
import { RowCache } from './row-cache.ts';

/** Rows fetched per worker call: a few screens, small enough to clone in well under a frame. */
export const WINDOW_ROWS = 100;

/** One answer of a list query: a window of rows and the size of the whole result. */
export interface RowsPage<T> {
  rows: readonly T[];
  total: number;
}

/** What a list shows: its identity, its data version and how to read a window of it. */
export interface RowsQuery<T> {
  /** Changes with what is asked (filter, sort): a new key starts the list over. */
  key: string;
  /** Bumped when the data changed (sync, an edit): visible windows are read again. */
  version: number;
  /**
   * The app's data version the answer reflects (`answeredVersion`, compared with `completedVersion`
   * by ListEmpty), when `version` is not it: a list that also follows the reference version sums them.
   */
  dataVersion?: number;
  /** Reads rows [offset, offset + limit) of the result named by `key`. */
  read(offset: number, limit: number): Promise<RowsPage<T>>;
  /** The list's name in a failure message ("Transactions could not be read: …"). */
  what: string;
}

export interface ListRows<T extends { id: string }> {
  /** Rows matching the query, or null before the first answer. */
  total: number | null;
  row(index: number): T | undefined;
  /** The virtualised table reports its visible range; missing windows are fetched. */
  ensure(start: number, end: number): void;
  /** Ids of rows [start, end], from the cache or (when not all loaded) from the worker. */
  idsInRange(start: number, end: number): Promise<string[]>;
  /** True until the first answer for the current query arrives. */
  waiting: boolean;
  /** The data version the shown answer was read at (null before the first). */
  answeredVersion: number | null;
}

/**
 * A query's result as row windows. A new key starts over; a data change refetches what is
 * visible and keeps the old rows on screen meanwhile.
 */
export function useRows<T extends { id: string }>(query: RowsQuery<T>): ListRows<T> {
  const { key, version } = query;
  const [cache] = useState(() => new RowCache<T>(WINDOW_ROWS));
  const [total, setTotal] = useState<number | null>(null);
  const [answeredKey, setAnsweredKey] = useState<string | null>(null);
  const [answeredVersion, setAnsweredVersion] = useState<number | null>(null);
  const [, setTick] = useState(0);
  const visible = useRef<[number, number]>([0, WINDOW_ROWS - 1]);
  const latest = useRef(query);
  // Declared before the fetching effect, so it has run by the time that one reads it.
  useEffect(() => {
    latest.current = query;
  });

  const fetchMissing = useCallback(() => {
    const [start, end] = visible.current;
    const gen = cache.gen;
    const { key: k, read, what, version, dataVersion } = latest.current;
    const v = dataVersion ?? version;
    for (const page of cache.missing(start, end)) {
      cache.markInFlight(page);
      read(page * WINDOW_ROWS, WINDOW_ROWS).then(
        (res) => {
          if (!cache.put(page, res.rows, gen)) return;
          // An answer is not input: its render yields to the browser in slices (issue 33: outside
          // an event an update renders as one blocking task, the whole page's rows at once on a
          // phone's CPU), and a key press meanwhile is handled first.
          startTransition(() => {
            setTotal(res.total);
            setAnsweredKey(k);
            setAnsweredVersion(v);
            setTick((t) => t + 1);
          });
        },
        (err: unknown) => {
          cache.fail(page, gen);
          // A failed read must not look like an empty result: say so (the next scroll retries).
          if (gen === cache.gen) toastError(`${what} could not be read: ${err instanceof Error ? err.message : String(err)}`);
        },
      );
    }
  }, [cache]);

  const previousKey = useRef<string | null>(null);
  useEffect(() => {
    const sameQuery = previousKey.current === key;
    previousKey.current = key;
    cache.reset(sameQuery);
    if (!sameQuery) visible.current = [0, WINDOW_ROWS - 1];
    fetchMissing();
  }, [key, version, cache, fetchMissing]);

  const ensure = useCallback(
    (start: number, end: number) => {
      visible.current = [Math.max(0, start), Math.max(0, end)];
      fetchMissing();
    },
    [fetchMissing],
  );

  const idsInRange = useCallback(
    async (start: number, end: number) => {
      const cached = cache.slice(start, end);
      if (cached.every(Boolean)) return cached.map((r) => r!.id);
      const res = await latest.current.read(start, end - start + 1);
      return res.rows.map((r) => r.id);
    },
    [cache],
  );

  const row = useCallback((index: number) => cache.get(index), [cache]);
  return { total, row, ensure, idsInRange, waiting: answeredKey !== key, answeredVersion };
}
