import { startTransition, useEffect, useMemo, useState } from 'react';
import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import type { DataClient } from '../../data-access/types.ts';
import type { Totals } from './totals-text.ts';

/**
 * Totals computed in the worker over the WHOLE filtered result (count and sum per currency),
 * re-asked when the query or the data changes; the engine caches them per query version, so a
 * re-render costs one round trip. `null` until the first answer for this query. Answers render as
 * transitions (yielding, after input: issue 33), as `useAnswer`'s.
 */
export function useResultTotals(client: DataClient, key: string, filter: TransactionFilter, sort: TransactionSort, dataVersion: number): Totals | null {
  const [state, setState] = useState<{ key: string; totals: Totals } | null>(null);
  useEffect(() => {
    let live = true;
    void client.totals('transactions', { filter, sort }).then(
      (t) => live && startTransition(() => setState({ key, totals: { count: t.count, sums: t.sums, excluded: t.excluded } })),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // `key` names filter and sort: the objects themselves change identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, key, dataVersion]);
  return state?.key === key ? state.totals : null;
}

/**
 * The currencies the list holds on this device, for the Currency filter (issue 25): those of the
 * unfiltered result's totals (a currency with only declined rows included), most rows first.
 * `selected` stays offered even when no row of it is here yet (a link, a bookmark).
 */
export function useTransactionCurrencies(client: DataClient, dataVersion: number, selected: string | undefined): string[] {
  const [codes, setCodes] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    void client.totals('transactions', { filter: {}, sort: 'occurred_desc' }).then(
      (t) => live && startTransition(() => setCodes(t.sums.map((s) => s.currency))),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, dataVersion]);
  return useMemo(() => (selected && !codes.includes(selected) ? [...codes, selected] : codes), [codes, selected]);
}

/** The same for the selected rows (a selection of "all N matching" included), by id. */
export function useSelectionTotals(client: DataClient, ids: ReadonlySet<string>, dataVersion: number): Totals | null {
  const [state, setState] = useState<{ ids: ReadonlySet<string>; totals: Totals } | null>(null);
  useEffect(() => {
    if (ids.size === 0) return;
    let live = true;
    void client.selectionTotals('transactions', [...ids]).then(
      (t) => live && startTransition(() => setState({ ids, totals: { count: t.count, sums: t.sums, excluded: t.excluded } })),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, ids, dataVersion]);
  return state?.ids === ids ? state.totals : null;
}
