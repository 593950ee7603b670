import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import { clampPageIndex } from '../../../schema/paging.ts';
import { canCodeTransactions } from '../../../schema/roles.ts';
import type { TransactionFilter, TransactionSort } from '../../../schema/transaction-query.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { TransactionView } from '../../data-access/types.ts';
import type { Command } from '../../lib/commands.ts';
import { formatCount } from '../../lib/format.ts';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { useRows } from '../../lib/list/use-rows.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { URL_WRITE_DELAY_MS, useInstantSearch } from '../../lib/use-instant-search.ts';
import { CODE_COMMAND_ID, SEARCH_COMMAND_ID, takeSearchFocusRequest } from './commands.ts';
import { DEFAULT_SORT, filterFromSearch, queryKey, type TransactionsSearch } from './search-params.ts';

const routeApi = getRouteApi('/_app/transactions');

const isSet = (v: unknown) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/** The URL's query (search box, filters, sort); `filter` keeps its identity until the query changes. */
function useTransactionsQuery() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const setSearch = useCallback(
    (patch: Partial<TransactionsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next, page: undefined }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  // The page index and the open row change the URL too: they must not make a new filter (a new spec).
  const filterJson = JSON.stringify({ ...filterFromSearch(search), q: q || undefined });
  const filter = useMemo(() => JSON.parse(filterJson) as TransactionFilter, [filterJson]);
  const sort = search.sort ?? DEFAULT_SORT;
  const onFilterChange = useCallback((patch: Partial<TransactionFilter>) => setSearch({ ...patch, page: undefined }), [setSearch]);
  const onClearFilters = useCallback(() => void navigate({ search: (prev) => (prev.q ? { q: prev.q } : {}), replace: true }), [navigate]);
  const onSort = useCallback((s: TransactionSort) => setSearch({ sort: s === DEFAULT_SORT ? undefined : s, page: undefined }), [setSearch]);
  const filtered = Object.values(filter).some(isSet);
  return { search, setSearch, q, setQ, filter, sort, key: queryKey(filter, sort), filtered, onFilterChange, onClearFilters, onSort };
}

/** §5: the top visible row's 50-row page, in the URL (clamped), back to the first on a new query. */
function usePageIndex(urlPage: number | undefined, total: number | null, setSearch: (p: Partial<TransactionsSearch>) => void) {
  const [initialRow] = useState(() => (urlPage ?? 0) * DEFAULT_PAGE_SIZE);
  // Only the page of the top row is state: scrolling within a page re-renders nothing here.
  const [topPage, setTopPage] = useState(() => Math.floor(initialRow / DEFAULT_PAGE_SIZE));
  const page = clampPageIndex(topPage, total ?? 0, DEFAULT_PAGE_SIZE);
  useEffect(() => {
    if (total === null) return;
    const t = setTimeout(() => {
      if ((urlPage ?? 0) !== page) setSearch({ page: page || undefined });
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(t);
  }, [page, urlPage, total, setSearch]);
  const onVisibleRange = useCallback((first: number) => setTopPage(Math.floor(first / DEFAULT_PAGE_SIZE)), []);
  return { page, initialRow, onVisibleRange };
}

/**
 * The transactions page's state: the URL query, the rows read from the worker's mirror, the list
 * (selection, keys, current row), the page index, the bulk coding dialog and the ⌘K commands.
 */
export function useTransactionsPage() {
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const canCode = session ? canCodeTransactions(session.user) : false;
  const query = useTransactionsQuery();
  const { search, setSearch, filter, sort, key } = query;
  const rows = useRows<TransactionView>({
    key,
    version: dataVersion,
    what: 'Transactions',
    read: (offset, limit) => client.queryTransactions({ filter, sort, offset, limit }),
  });
  const paging = usePageIndex(search.page, rows.total, setSearch);
  const [bulkOpen, setBulkOpen] = useState(false);
  const selected = useRef(0);
  const matchingIds = useCallback(() => client.matchingIds(filter), [client, filter]);
  const openBulk = useCallback(() => setBulkOpen(true), []);
  const onCode = useCallback(() => {
    if (selected.current === 0) toastInfo('Select transactions to code');
    else if (canCode) setBulkOpen(true);
  }, [canCode]);
  const list = useListPage<TransactionView>({
    key, rows, openId: search.open, dialogOpen: bulkOpen, matchingIds, onCode,
    onOpen: useCallback((row: TransactionView) => setSearch({ open: row.id }), [setSearch]),
    onClose: useCallback(() => setSearch({ open: undefined }), [setSearch]),
    initialRow: paging.initialRow, onVisibleRange: paging.onVisibleRange,
  });
  const selectedCount = list.selection.ids.size;
  useEffect(() => {
    selected.current = selectedCount;
  }, [selectedCount]);
  const { focusSearch } = list;
  // A "Search transactions" command run from another page focuses the box once it is here.
  useEffect(() => {
    if (takeSearchFocusRequest()) focusSearch();
  }, [focusSearch]);
  usePageCommands(
    useMemo<Command[]>(() => [
      { id: SEARCH_COMMAND_ID, label: 'Search transactions', group: 'Transactions', keywords: ['find', 'filter'], shortcut: 'list.search', run: focusSearch },
      ...(selectedCount > 0 && canCode
        ? [{ id: CODE_COMMAND_ID, label: `Code selected (${formatCount(selectedCount)})`, group: 'Transactions', keywords: ['coding', 'bulk', 'gl account'], shortcut: 'list.code' as const, run: openBulk }]
        : []),
    ], [focusSearch, selectedCount, canCode, openBulk]),
  );
  return { client, dataVersion, canCode, query, rows, list, page: paging.page, matchingIds, bulkOpen, openBulk, closeBulk: useCallback(() => setBulkOpen(false), []) };
}
