import type { TransactionSort } from '../../../schema/transaction-query.ts';
import type { TransactionView } from '../../data-access/types.ts';
import { formatDay, formatMoney } from '../../lib/format.ts';
import type { ListColumn } from '../../lib/list/list-spec.ts';
import { ariaSort, nextSort, type SortableColumn } from './search-params.ts';
import { StatusMarks } from './status-marks.tsx';
import type { ReferenceNames } from './use-reference-data.ts';

type Column = ListColumn<TransactionView>;

/**
 * The transactions grid's columns: Date, Merchant and Amount sort when their header is pressed
 * (aria-sort says how); on a phone the stylesheet (`.grid-cards`) keeps merchant, amount, date and
 * state of each row as a card. Built once per sort and reference names (the spec is memoised).
 */
export function transactionColumns(sort: TransactionSort, names: ReferenceNames, onSort: (sort: TransactionSort) => void): Column[] {
  const sortable = (column: SortableColumn): Pick<Column, 'sorted' | 'onSort'> => ({
    sorted: ariaSort(sort, column),
    onSort: () => onSort(nextSort(sort, column)),
  });
  return [
    { key: 'date', header: 'Date', className: 'cell-date', ...sortable('date'), cell: (r) => formatDay(r.occurred_at) },
    {
      key: 'merchant', header: 'Merchant', className: 'cell-merchant', ...sortable('merchant'),
      cell: (r) => <span title={r.merchant_category}>{r.merchant_name}</span>,
    },
    { key: 'cardholder', header: 'Cardholder', className: 'cell-cardholder', cell: (r) => names.user(r.user_id) },
    {
      key: 'amount', header: 'Amount', className: 'cell-amount', ...sortable('amount'),
      cellClassName: (r) => (r.amount < 0 ? 'negative' : undefined),
      cell: (r) => formatMoney(r.amount, r.currency),
    },
    {
      key: 'gl', header: 'GL account', className: 'cell-coding',
      cell: (r) => (r.gl_account_id === null ? <span className="missing" aria-label="No GL account">—</span> : names.glAccount(r.gl_account_id)),
    },
    { key: 'department', header: 'Department', className: 'cell-coding', cell: (r) => names.department(r.department_id) },
    { key: 'location', header: 'Location', className: 'cell-coding', cell: (r) => names.location(r.location_id) },
    { key: 'memo', header: 'Memo', className: 'cell-memo', cell: (r) => <span title={r.memo ?? undefined}>{r.memo}</span> },
    { key: 'status', header: 'Status', className: 'cell-status', cell: (r) => <StatusMarks row={r} /> },
  ];
}
