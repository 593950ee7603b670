import { useMemo } from 'react';
import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { formatCount, formatMoney } from '../../lib/format.ts';
import type { ListBulkAction, ListSpec } from '../../lib/list/list-spec.ts';
import { footerHint } from '../../lib/shortcuts.ts';
import { ResultTotals, SelectionTotals, TransactionFilters } from './list-lines.tsx';
import { transactionColumns } from './transactions-columns.tsx';
import type { ReferenceView } from './use-reference-data.ts';

/** A row as a card on a phone (`.grid-cards .grid-row` in phone.css has this height). */
const CARD_HEIGHT = 72;
/** The table's one-line key hint, from the shortcut registry. */
const KEY_HINT = footerHint(['list', 'global']);

export interface TransactionsSpecInput {
  /** The query's key (filter + sort): `filter` keeps its identity while it is unchanged. */
  queryKey: string;
  filter: TransactionFilter;
  sort: TransactionSort;
  reference: ReferenceView;
  canCode: boolean;
  matchingIds(): Promise<string[]>;
  onSort(sort: TransactionSort): void;
  onFilterChange(patch: Partial<TransactionFilter>): void;
  onClearFilters(): void;
  /** The bulk bar's "Code N…": open the bulk coding dialog on the selection. */
  onCode(): void;
}

const summary = (ids: ReadonlySet<string>) => <SelectionTotals ids={ids} />;

/**
 * The 100k-row transactions grid as a list spec, memoised on what its rows show (sort, reference
 * names) and what its bars show (the query, the role): scrolling, selecting or a sync update
 * builds no new spec, so only rows whose data changed re-render.
 */
export function useTransactionsSpec(input: TransactionsSpecInput): ListSpec<TransactionView> {
  const { queryKey, filter, sort, reference, canCode, matchingIds, onSort, onFilterChange, onClearFilters, onCode } = input;
  const columns = useMemo(() => transactionColumns(sort, reference.names, onSort), [sort, reference.names, onSort]);
  const select = useMemo(() => {
    const code: ListBulkAction = { key: 'code', label: (n) => `Code ${formatCount(n)}…`, variant: 'primary', run: onCode };
    return {
      label: (r: TransactionView) => `Select ${r.merchant_name}, ${formatMoney(r.amount, r.currency)}`,
      allLabel: 'Select all matching',
      matchingIds,
      actions: canCode ? [code] : [],
      summary,
    };
  }, [canCode, matchingIds, onCode]);
  const toolbar = useMemo(
    () => <TransactionFilters filter={filter} reference={reference} onChange={onFilterChange} onClear={onClearFilters} />,
    [filter, reference, onFilterChange, onClearFilters],
  );
  const countLine = useMemo(() => <ResultTotals queryKey={queryKey} filter={filter} sort={sort} />, [queryKey, filter, sort]);
  return useMemo<ListSpec<TransactionView>>(
    () => ({
      label: 'Transactions',
      rowIdPrefix: 'txn-row',
      rowClassName: 'txn-row',
      gridClassName: 'txn-grid',
      phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
      columns,
      pending: (r) => r.pending,
      toolbar,
      countLine,
      select,
      partialNouns: ['transaction', 'transactions'],
      emptyText: 'No transactions match.',
      emptyHint: 'Try a shorter search or clear the filters.',
      waitingText: 'Opening your saved transactions…',
      loadingWhat: 'transactions',
      keyHint: KEY_HINT,
    }),
    [columns, toolbar, countLine, select],
  );
}
