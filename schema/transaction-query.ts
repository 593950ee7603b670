/**
 * Free-text query terms, the same for the worker's text index and the server's search. The
 * transaction filters and sorts live in the transaction definition (schema/entities/transaction.ts)
 * and are re-exported here for the modules that import them from this path.
 */
export {
  compareTransactions,
  matchesTransactionFilter,
  TRANSACTION_SORTS,
  transactionFilterSchema,
  transactionSortSchema,
  type TransactionFilter,
  type TransactionSort,
} from './entities/transaction.ts';

/** Splits a free-text query into lower-case terms; every term must match (AND). */
export function queryTerms(q: string | undefined): string[] {
  return (q ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}@.'&-]+/u)
    .map((s) => s.replace(/^[.'&-]+|[.'&-]+$/g, ''))
    .filter(Boolean);
}
