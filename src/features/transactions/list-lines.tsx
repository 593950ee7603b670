import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { cardName } from '../../lib/card-labels.ts';
import { useCard } from '../../lib/cards.ts';
import { isPartial } from '../../lib/sync-status-text.ts';
import { FilterBar } from './filter-bar.tsx';
import { resultTotalsText, selectionTotalsText } from './totals-text.ts';
import type { ReferenceView } from './use-reference-data.ts';
import { useResultTotals, useSelectionTotals, useTransactionCurrencies } from './use-totals.ts';

/*
 * The parts of the transactions list page that follow the data (totals, the Currency filter's
 * options, a card's name): each reads the client and data version itself, so the page's memoised
 * spec holds them as stable elements and a sync update never re-renders the grid's rows.
 */

/** Count and sum per currency of the whole result (every matching row, not the visible page). */
export function ResultTotals({ queryKey, filter, sort }: { queryKey: string; filter: TransactionFilter; sort: TransactionSort }) {
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const partial = useAppState((s) => isPartial(s.status));
  const totals = useResultTotals(client, queryKey, filter, sort, dataVersion);
  return (
    <p className="list-totals" data-testid="result-totals">
      {/* The Currency filter, if set: only that currency's total is shown (issue 25). */}
      {totals ? resultTotalsText(totals, partial, undefined, filter.currency) : '\u00a0'}
    </p>
  );
}

/** The bulk bar's words: the selected rows' count and sums per currency. */
export function SelectionTotals({ ids }: { ids: ReadonlySet<string> }) {
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const totals = useSelectionTotals(client, ids, dataVersion);
  return <strong data-testid="selection-totals">{selectionTotalsText(ids.size, totals)}</strong>;
}

export interface TransactionFiltersProps {
  filter: TransactionFilter;
  reference: ReferenceView;
  onChange(patch: Partial<TransactionFilter>): void;
  onClear(): void;
}

/** The filter bar with what it reads from the mirror: the list's currencies and the narrowed-to card. */
export function TransactionFilters({ filter, reference, onChange, onClear }: TransactionFiltersProps) {
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const currencies = useTransactionCurrencies(client, dataVersion, filter.currency);
  // A card's "View all in Transactions" narrows the list to it: the filter bar names the card.
  const card = useCard(client, filter.card_ids?.length === 1 ? filter.card_ids[0] : null, dataVersion);
  return (
    <FilterBar filter={filter} cardLabel={card ? cardName(card) : undefined} currency={currency} currencies={currencies}
      reference={reference} onChange={onChange} onClear={onClear} />
  );
}
