import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import type { DataClient, TransactionView } from '../../data-access/types.ts';
import { useRows, type ListRows } from '../../lib/list/use-rows.ts';
import { queryKey } from './search-params.ts';

export type TransactionRows = ListRows<TransactionView>;

/** The transactions matching a filter and sort, as row windows read from the worker's mirror. */
export function useTransactionRows(
  client: DataClient,
  filter: TransactionFilter,
  sort: TransactionSort,
  dataVersion: number,
): TransactionRows {
  return useRows<TransactionView>({
    key: queryKey(filter, sort),
    version: dataVersion,
    what: 'Transactions',
    read: (offset, limit) => client.queryTransactions({ filter, sort, offset, limit }),
  });
}
