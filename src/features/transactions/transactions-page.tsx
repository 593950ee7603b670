import { useRowPointer } from '../../lib/list/use-row-pointer.ts';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import { clampPageIndex, pageLabel } from '../../../schema/paging.ts';
import { canCodeTransactions } from '../../../schema/roles.ts';
import type { TransactionFilter } from '../../../schema/transaction-query.ts';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { TransactionView } from '../../data-access/types.ts';
import { BulkCodingDialog } from './bulk-coding-dialog.tsx';
import { DetailDrawer } from './detail-drawer.tsx';
import { FilterBar } from './filter-bar.tsx';
import { BulkBar, ResultTotals } from './toolbar.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { useResultTotals, useSelectionTotals, useTransactionCurrencies } from './use-totals.ts';
import { DEFAULT_SORT, filterFromSearch, queryKey, type TransactionsSearch } from './search-params.ts';
import { TransactionsTable } from './transactions-table.tsx';
import { useReferenceData } from './use-reference-data.ts';
import { useTransactionRows } from './use-transaction-rows.ts';
import { headerCheckState } from '../../lib/list/selection.ts';
import { useSelection } from '../../lib/list/use-selection.ts';
import { isPartial, partialResultsText } from '../../lib/sync-status-text.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import type { Command } from '../../lib/commands.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { footerHint } from '../../lib/shortcuts.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import { URL_WRITE_DELAY_MS, useInstantSearch } from '../../lib/use-instant-search.ts';
import { CODE_COMMAND_ID, SEARCH_COMMAND_ID, takeSearchFocusRequest } from './commands.ts';
import { formatCount } from '../../lib/format.ts';
import { TableFooter } from '../../components/table-footer.tsx';
import { useCard } from '../../lib/cards.ts';
import { cardName } from '../../lib/card-labels.ts';
import { HeldChargesBanner } from '../../components/held-charges.tsx';

/** The table's one-line key hint, from the shortcut registry. */
const KEY_HINT = footerHint(['list', 'global']);

const routeApi = getRouteApi('/_app/transactions');

export function TransactionsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = session?.business.currency ?? 'USD';
  const canCode = session ? canCodeTransactions(session.user) : false;

  const setSearch = useCallback(
    (patch: Partial<TransactionsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next, page: undefined }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const filter: TransactionFilter = useMemo(() => ({ ...filterFromSearch(search), q: q || undefined }), [search, q]);
  const sort = search.sort ?? DEFAULT_SORT;
  const key = queryKey(filter, sort);
  const rows = useTransactionRows(client, filter, sort, dataVersion);
  const total = rows.total ?? 0;
  // While the first mirror runs, results come only from what has arrived: say so.
  const filtered = Object.values(filter).some((v) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0));
  const partial = useAppState((s) => (rows.total === null ? null : partialResultsText(s.status, total, filtered)));
  const selection = useSelection(key, rows, () => client.matchingIds(filter));
  const totals = useResultTotals(client, key, filter, sort, dataVersion);
  const selectionTotals = useSelectionTotals(client, selection.ids, dataVersion);
  const currencies = useTransactionCurrencies(client, dataVersion, filter.currency);
  const partialTotals = useAppState((s) => isPartial(s.status));
  const [bulkOpen, setBulkOpen] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [initialRow] = useState(() => (search.page ?? 0) * DEFAULT_PAGE_SIZE);
  // Only the 50-row page of the top row is state: scrolling within a page re-renders nothing here.
  const [topPage, setTopPage] = useState(() => Math.floor(initialRow / DEFAULT_PAGE_SIZE));

  const openRow = useCallback((row: TransactionView) => setSearch({ open: row.id }), [setSearch]);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);

  const selectedCount = selection.ids.size;
  // A card's "View all in Transactions" narrows the list to it: the filter bar names the card.
  const filterCard = useCard(client, filter.card_ids?.length === 1 ? filter.card_ids[0] : null, dataVersion);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);
  const codeSelection = useCallback(() => {
    if (selection.ids.size === 0) toastInfo('Select transactions to code');
    else if (canCode) setBulkOpen(true);
  }, [selection.ids.size, canCode]);

  // A "Search transactions" command run from another page focuses the box once it is here.
  useEffect(() => {
    if (takeSearchFocusRequest()) focusSearch();
  }, [focusSearch]);

  const pageCommands = useMemo<Command[]>(
    () => [
      { id: SEARCH_COMMAND_ID, label: 'Search transactions', group: 'Transactions', keywords: ['find', 'filter'], shortcut: 'list.search', run: focusSearch },
      ...(selectedCount > 0 && canCode
        ? [{ id: CODE_COMMAND_ID, label: `Code selected (${formatCount(selectedCount)})`, group: 'Transactions', keywords: ['coding', 'bulk', 'gl account'], shortcut: 'list.code' as const, run: () => setBulkOpen(true) }]
        : []),
    ],
    [focusSearch, selectedCount, canCode],
  );
  usePageCommands(pageCommands);

  const active = useTableKeys({
    key,
    total,
    rows,
    selection,
    drawerOpen: search.open !== undefined,
    dialogOpen: bulkOpen,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
    onCode: codeSelection,
  });

  // §5: the page index (top visible row's 50-row page) lives in the URL, clamped, and resets
  // to the first page when the search changes (the table scrolls to the top on a new key).
  const page = clampPageIndex(topPage, total, DEFAULT_PAGE_SIZE);
  useEffect(() => {
    if (rows.total === null) return;
    const t = setTimeout(() => {
      if ((search.page ?? 0) !== page) setSearch({ page: page || undefined });
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(t);
  }, [page, search.page, rows.total, setSearch]);

  const onFilterChange = useCallback(
    (patch: Partial<TransactionFilter>) => setSearch({ ...patch, page: undefined }),
    [setSearch],
  );
  const onClearFilters = useCallback(
    () => void navigate({ search: (prev) => (prev.q ? { q: prev.q } : {}), replace: true }),
    [navigate],
  );
  const onVisibleRange = useCallback((first: number) => setTopPage(Math.floor(first / DEFAULT_PAGE_SIZE)), []);

  const { onRowClick, onToggle } = useRowPointer<TransactionView>(active, selection, openRow);

  return (
    <div className="transactions">
      <div className="page-header">
        <h1>Transactions</h1>
        <span className="page-label" aria-label="Showing">
          {rows.total === null ? '' : pageLabel(page, DEFAULT_PAGE_SIZE, total, formatCount)}
        </span>
        <SearchBox
          id="txn-search"
          label="Search transactions"
          placeholder="Search merchant, memo, cardholder, coding…"
          ref={searchRef}
          value={q}
          onChange={setQ}
          onLeave={() => scrollRef.current?.closest<HTMLElement>('[role="grid"]')?.focus()}
        />
        <ExportCsvButton collection="transactions" filter={filter} sort={sort} noun="transactions" />
      </div>
      <HeldChargesBanner />
      <FilterBar
        filter={filter}
        cardLabel={filterCard ? cardName(filterCard) : undefined}
        currency={currency}
        currencies={currencies}
        reference={reference}
        onChange={onFilterChange}
        onClear={onClearFilters}
      />
      <ResultTotals totals={totals} partial={partialTotals} currency={filter.currency} />
      {partial && (
        <p className="partial-notice" role="note" data-testid="partial-results">
          {partial}
        </p>
      )}
      {selectedCount > 0 && (
        <BulkBar
          selected={selectedCount}
          totals={selectionTotals}
          total={total}
          canCode={canCode}
          onSelectAll={() => void selection.selectAllMatching()}
          onCode={() => setBulkOpen(true)}
          onClear={selection.clear}
        />
      )}
      <TransactionsTable
        rows={rows}
        total={total}
        loaded={rows.total !== null}
        sort={sort}
        names={reference.names}
        selected={selection.ids}
        active={active.index}
        openId={search.open}
        headerState={headerCheckState(selectedCount, total)}
        queryKey={key}
        initialRow={initialRow}
        scrollRef={scrollRef}
        onSort={(s) => setSearch({ sort: s === DEFAULT_SORT ? undefined : s, page: undefined })}
        onRowClick={onRowClick}
        onToggle={onToggle}
        onHeaderToggle={() => (selectedCount > 0 ? selection.clear() : void selection.selectAllMatching())}
        onKeyDown={active.onGridKeyDown}
        onFocus={active.onGridFocus}
        onVisibleRange={onVisibleRange}
      />
      <TableFooter hint={KEY_HINT} />
      {search.open && (
        <DetailDrawer
          id={search.open}
          client={client}
          reference={reference}
          dataVersion={dataVersion}
          canCode={canCode}
          onClose={closeDrawer}
          returnFocus={gridElement}
        />
      )}
      {bulkOpen && (
        <BulkCodingDialog
          ids={[...selection.ids]}
          client={client}
          reference={reference}
          returnFocus={gridElement}
          onCancel={() => setBulkOpen(false)}
          onDone={() => {
            setBulkOpen(false);
            selection.clear();
          }}
        />
      )}
    </div>
  );
}
