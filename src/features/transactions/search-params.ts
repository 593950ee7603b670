import { z } from 'zod';
import {
  transactionFilterSchema,
  transactionSortSchema,
  type TransactionFilter,
  type TransactionSort,
} from '../../../schema/transaction-query.ts';

/**
 * The transactions route's URL state: the shared filter schema, the sort, the §5 page index
 * (the 50-row page holding the top visible row, so a reload returns to the same place) and the
 * transaction open in the detail drawer. Selection stays in memory on purpose: it can hold
 * 10,000 ids, far past what a URL carries.
 */
export const transactionsSearchSchema = transactionFilterSchema.extend({
  sort: transactionSortSchema.optional(),
  page: z.coerce.number().int().min(0).optional(),
  open: z.uuid().optional(),
});
export type TransactionsSearch = z.infer<typeof transactionsSearchSchema>;

export const DEFAULT_SORT: TransactionSort = 'occurred_desc';

const FILTER_KEYS = Object.keys(transactionFilterSchema.shape) as (keyof TransactionFilter)[];
const SEARCH_SHAPE = transactionsSearchSchema.shape as Record<string, z.ZodType>;

/**
 * Parses each parameter on its own: one bad value (a hand-edited URL, an old bookmark) drops
 * that parameter instead of the whole URL state. Empty values are stripped (§5).
 */
export function parseTransactionsSearch(raw: Record<string, unknown>): TransactionsSearch {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SEARCH_SHAPE)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = schema.safeParse(typeof value === 'number' || typeof value === 'boolean' ? String(value) : value);
    if (!parsed.success || parsed.data === undefined) continue;
    if (Array.isArray(parsed.data) && parsed.data.length === 0) continue;
    out[key] = parsed.data;
  }
  return out as TransactionsSearch;
}

/** The filter part of the URL state (what the worker's query engine takes). */
export function filterFromSearch(search: TransactionsSearch): TransactionFilter {
  const filter: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) if (search[key] !== undefined) filter[key] = search[key];
  return filter as TransactionFilter;
}

/** A stable key for a filter+sort: equal queries get equal keys whatever their key order. */
export function queryKey(filter: TransactionFilter, sort: TransactionSort): string {
  const entries = Object.entries(filter)
    .filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([sort, entries]);
}

/** True when any structured filter (not the text search) is set. */
export function hasStructuredFilter(filter: TransactionFilter): boolean {
  return FILTER_KEYS.some((k) => k !== 'q' && filter[k] !== undefined);
}

/** The sort a column header click asks for: first click sorts its natural way, again reverses. */
export type SortableColumn = 'date' | 'amount' | 'merchant';
export function nextSort(current: TransactionSort, column: SortableColumn): TransactionSort {
  switch (column) {
    case 'date':
      return current === 'occurred_desc' ? 'occurred_asc' : 'occurred_desc';
    case 'amount':
      return current === 'amount_desc' ? 'amount_asc' : 'amount_desc';
    case 'merchant':
      return 'merchant_asc';
  }
}

/** aria-sort of a column header under the current sort. */
export function ariaSort(current: TransactionSort, column: SortableColumn): 'ascending' | 'descending' | 'none' {
  if (column === 'date' && current.startsWith('occurred_')) return current.endsWith('_asc') ? 'ascending' : 'descending';
  if (column === 'amount' && current.startsWith('amount_')) return current.endsWith('_asc') ? 'ascending' : 'descending';
  if (column === 'merchant' && current === 'merchant_asc') return 'ascending';
  return 'none';
}
