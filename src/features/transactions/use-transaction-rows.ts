import { useCallback, useEffect, useRef, useState } from 'react';
import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { toastError } from '../../app/toast-store.ts';
import { RowCache } from './row-cache.ts';
import { queryKey } from './search-params.ts';

/** Rows fetched per worker call: a few screens, small enough to clone in well under a frame. */
export const WINDOW_ROWS = 100;

export interface TransactionRows {
  /** Rows matching the query, or null before the first answer. */
  total: number | null;
  row(index: number): TransactionView | undefined;
  /** The virtualised table reports its visible range; missing windows are fetched. */
  ensure(start: number, end: number): void;
  /** Ids of rows [start, end], from the cache or (when not all loaded) from the worker. */
  idsInRange(start: number, end: number): Promise<string[]>;
  /** Worker time of the last answer (shown in the footer: search is local and instant). */
  tookMs: number | null;
  /** True until the first answer for the current query arrives. */
  waiting: boolean;
}

/**
 * The result of a transactions query as row windows. A new filter or sort starts over; a data
 * change (sync pulled rows, an edit) refetches what is visible and keeps old rows meanwhile.
 */
export function useTransactionRows(
  client: DataClient,
  filter: TransactionFilter,
  sort: TransactionSort,
  dataVersion: number,
): TransactionRows {
  const [cache] = useState(() => new RowCache<TransactionView>(WINDOW_ROWS));
  const [total, setTotal] = useState<number | null>(null);
  const [tookMs, setTookMs] = useState<number | null>(null);
  const [answeredKey, setAnsweredKey] = useState<string | null>(null);
  const [, setTick] = useState(0);
  const visible = useRef<[number, number]>([0, WINDOW_ROWS - 1]);
  const query = useRef({ filter, sort });
  const key = queryKey(filter, sort);
  // Declared before the fetching effect, so it has run by the time that one reads it.
  useEffect(() => {
    query.current = { filter, sort };
  });

  const fetchMissing = useCallback(() => {
    const [start, end] = visible.current;
    const gen = cache.gen;
    const { filter: f, sort: s } = query.current;
    const k = queryKey(f, s);
    for (const page of cache.missing(start, end)) {
      cache.markInFlight(page);
      client.queryTransactions({ filter: f, sort: s, offset: page * WINDOW_ROWS, limit: WINDOW_ROWS }).then(
        (res) => {
          if (!cache.put(page, res.rows, gen)) return;
          setTotal(res.total);
          setTookMs(res.took_ms);
          setAnsweredKey(k);
          setTick((t) => t + 1);
        },
        (err: unknown) => {
          cache.fail(page, gen);
          // A failed read must not look like an empty result: say so (the next scroll retries).
          if (gen === cache.gen) toastError(`Transactions could not be read: ${err instanceof Error ? err.message : String(err)}`);
        },
      );
    }
  }, [cache, client]);

  const previousKey = useRef<string | null>(null);
  useEffect(() => {
    const sameQuery = previousKey.current === key;
    previousKey.current = key;
    cache.reset(sameQuery);
    if (!sameQuery) visible.current = [0, WINDOW_ROWS - 1];
    fetchMissing();
  }, [key, dataVersion, cache, fetchMissing]);

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
      const { filter: f, sort: s } = query.current;
      const res = await client.queryTransactions({ filter: f, sort: s, offset: start, limit: end - start + 1 });
      return res.rows.map((r) => r.id);
    },
    [cache, client],
  );

  const row = useCallback((index: number) => cache.get(index), [cache]);
  return { total, row, ensure, idsInRange, tookMs, waiting: answeredKey !== key };
}
