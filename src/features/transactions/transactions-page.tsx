import { useCallback } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import { pageLabel } from '../../../schema/paging.ts';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { HeldChargesBanner } from '../../components/held-charges.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { BulkCodingDialog } from './bulk-coding-dialog.tsx';
import { DetailDrawer } from './detail-drawer.tsx';
import { useTransactionsSpec } from './transactions-spec.tsx';
import { useReferenceData } from './use-reference-data.ts';
import { useTransactionsPage } from './use-transactions-page.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

/**
 * /transactions: the 100k-row grid on the declarative list page (lib/list), its search box and
 * export in the header, the detail drawer of the open row and the bulk coding dialog.
 */
export function TransactionsPage() {
  const { client, dataVersion, canCode, query, rows, list, page, matchingIds, bulkOpen, openBulk, closeBulk } = useTransactionsPage();
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const { search, setSearch, filter, sort } = query;
  const spec = useTransactionsSpec({
    queryKey: query.key, filter, sort, reference, canCode, matchingIds, onCode: openBulk,
    onSort: query.onSort, onFilterChange: query.onFilterChange, onClearFilters: query.onClearFilters,
  });
  const { gridElement, selection, searchRef } = list;
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);

  return (
    <div className="transactions">
      <div className="page-header">
        <h1>Transactions</h1>
        <SavedViewsBar list="transactions" />
        <span className="page-label" aria-label="Showing">
          {rows.total === null ? '' : pageLabel(page, DEFAULT_PAGE_SIZE, rows.total, formatCount)}
        </span>
        <SearchBox id="txn-search" label="Search transactions" placeholder="Search merchant, memo, cardholder, coding…"
          ref={searchRef} value={query.q} onChange={query.setQ} onLeave={() => gridElement()?.focus()} />
        <ExportCsvButton collection="transactions" filter={filter} sort={sort} noun="transactions" />
      </div>
      <HeldChargesBanner />
      <ListPage spec={spec} list={list} filtered={query.filtered} quiet={bulkOpen} />
      {search.open && (
        <DetailDrawer id={search.open} client={client} reference={reference} dataVersion={dataVersion} canCode={canCode}
          onClose={closeDrawer} returnFocus={gridElement} />
      )}
      {bulkOpen && (
        <BulkCodingDialog
          ids={[...selection.ids]}
          client={client}
          reference={reference}
          returnFocus={gridElement}
          onCancel={closeBulk}
          onDone={() => {
            closeBulk();
            selection.clear();
          }}
        />
      )}
    </div>
  );
}
