import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { getRouteApi } from '@tanstack/react-router';
import type { BillSort } from '../../../schema/entities/bill.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { TableFooter } from '../../components/table-footer.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { localDay } from '../../lib/bill-labels.ts';
import type { Command } from '../../lib/commands.ts';
import { formatCount } from '../../lib/format.ts';
import { headerCheckState } from '../../lib/list/selection.ts';
import { useRowPointer } from '../../lib/list/use-row-pointer.ts';
import { useSelection } from '../../lib/list/use-selection.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { partialResultsText } from '../../lib/sync-status-text.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { BillDrawer } from './bill-drawer.tsx';
import { BillPayNav } from './bill-pay-nav.tsx';
import { BillFormDialog } from './bill-form-dialog.tsx';
import { BillsTable } from './bills-table.tsx';
import { BulkBar } from './bulk-bar.tsx';
import { clearNewBillRequest, newBillCommand, peekNewBillRequest } from './commands.ts';
import type { BulkOutcome } from './run-bill-call.ts';
import { DEFAULT_SORT, filterFor, queryKey, SORT_OPTIONS, STATUS_TABS, type BillsSearch, type StatusTab } from './search-params.ts';
import { matchingBillIds, useBillRows, useSelectedBills, useTabCounts, type BillView } from './use-bills.ts';

const routeApi = getRouteApi('/_app/bills');
/** The list's keys minus coding (bills are coded in their form), plus the global ones. */
const KEY_HINT = footerHint(['list', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.code'));

type FormState = { bill?: BillView; templateId?: string } | null;

/**
 * Issue 11: /bills, for those who manage bill pay (§6). The bills are mirrored: the table reads
 * the worker (search on every keystroke, tabs by status with counts, sort), bills created or
 * edited offline show at once with their sync mark. New bill and Edit open the bill form; the
 * bulk actions and payments are direct calls, online only, answered per bill.
 */
export function BillsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = session?.business.currency ?? 'USD';

  const setSearch = useCallback(
    (patch: Partial<BillsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const tab: StatusTab = search.status ?? 'all';
  const sort: BillSort = search.sort ?? DEFAULT_SORT;
  const filter = useMemo(() => filterFor(tab, q), [tab, q]);
  const key = queryKey(filter, sort);
  const rows = useBillRows(client, filter, sort, dataVersion);
  const total = rows.total ?? 0;
  const counts = useTabCounts(client, q, dataVersion);
  const filtered = filter.q !== undefined || filter.statuses !== undefined;
  const partial = useAppState((s) => (rows.total === null ? null : partialResultsText(s.status, total, filtered, ['bill', 'bills'])));
  const selection = useSelection(key, rows, () => matchingBillIds(client, filter, sort));
  const selected = useSelectedBills(client, selection.ids, dataVersion);
  // A bill's due date is a calendar day: what is overdue changes at local midnight (re-read with the data).
  const today = useMemo(() => localDay(), [dataVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const vendorNames = useMemo(() => new Map(reference.data.vendors.map((v) => [v.id, v.name])), [reference.data.vendors]);
  const vendorName = useCallback((id: string) => vendorNames.get(id) ?? '', [vendorNames]);
  const vendorDocs = useMemo(() => new Map(reference.data.vendors.map((v) => [v.id, v])), [reference.data.vendors]);
  const vendorOf = useCallback((id: string) => vendorDocs.get(id), [vendorDocs]);

  // "New bill" from the palette on another page, or a link with new=bill: open the form with the list.
  // A template (`template=<id>`, the Templates page's "Use template") is what the new bill starts from.
  const [form, setForm] = useState<FormState>(() =>
    (peekNewBillRequest() || search.new === 'bill' ? (search.new === 'bill' && search.template ? { templateId: search.template } : {}) : null));
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    clearNewBillRequest();
    if (search.new || search.template) setSearch({ new: undefined, template: undefined });
  }, [search.new, search.template, setSearch]);

  const openNew = useCallback(() => setForm({}), []);
  const openRow = useCallback((row: BillView) => setSearch({ open: row.id }), [setSearch]);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);

  usePageCommands(
    useMemo<Command[]>(
      () => [newBillCommand(openNew), { id: 'bills.search', label: 'Search bills', group: 'Bills', keywords: ['find', 'invoice', 'vendor'], run: focusSearch }],
      [openNew, focusSearch],
    ),
  );

  const active = useTableKeys({
    key,
    total,
    rows,
    selection,
    drawerOpen: search.open !== undefined,
    dialogOpen: form !== null,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
  });
  const { onRowClick, onToggle } = useRowPointer<BillView>(active, selection, openRow);
  const nothingYet = counts !== null && counts.all === 0 && !q.trim() && !rows.waiting;

  const list = (
    <>
      {partial && (
        <p className="partial-notice" role="note" data-testid="partial-results">
          {partial}
        </p>
      )}
      {selection.ids.size > 0 && (
        <BulkBar client={client} selection={selection} selected={selected} total={total} online={online} vendorName={vendorName} vendorOf={vendorOf} onDone={setOutcome} returnFocus={gridElement} />
      )}
      {outcome && (
        <div className={outcome.failed > 0 ? 'notice notice-warn bulk-outcome' : 'notice bulk-outcome'} role="status" data-testid="bulk-outcome">
          <span>{outcome.text}</span>
          <Button size="sm" variant="ghost" onClick={() => setOutcome(null)}>
            Dismiss
          </Button>
        </div>
      )}
      {rows.total === null ? (
        <ListSkeleton what="bills" />
      ) : nothingYet ? (
        <EmptyState title="No bills yet" action={<Button variant="primary" onClick={openNew}>New bill</Button>}>
          Enter a vendor’s invoice to route it for approval and pay it on time. Bills you add offline are kept here and sync when you reconnect.
        </EmptyState>
      ) : (
        <BillsTable
          rows={rows}
          total={total}
          loaded={rows.total !== null}
          filtered={filtered}
          selected={selection.ids}
          headerState={headerCheckState(selection.ids.size, total)}
          active={active.index}
          openId={search.open}
          queryKey={key}
          today={today}
          vendorName={vendorName}
          scrollRef={scrollRef}
          onHeaderToggle={() => (selection.ids.size > 0 ? selection.clear() : void selection.selectAllMatching())}
          onToggle={onToggle}
          onRowClick={onRowClick}
          onKeyDown={active.onGridKeyDown}
          onFocus={active.onGridFocus}
          onVisibleRange={() => undefined}
        />
      )}
      <TableFooter hint={KEY_HINT} />
    </>
  );

  return (
    <div className="bills">
      <BillPayNav current="/bills" />
      <div className="page-header">
        <h1>Bills</h1>
        {rows.total !== null && total > 0 && (
          <span className="page-label" data-testid="bill-count">
            {formatCount(total)} {total === 1 ? 'bill' : 'bills'}
          </span>
        )}
        <span className="spacer" />
        <SearchBox id="bill-search" label="Search bills" placeholder="Search vendor, invoice no., memo…" ref={searchRef} value={q} onChange={setQ} onLeave={() => gridElement()?.focus()} />
        <SelectField variant="filter" label="Sort" value={sort} options={SORT_OPTIONS}
          onChange={(v) => setSearch({ sort: v === DEFAULT_SORT ? undefined : (v as BillSort) })} />
        <ExportCsvButton collection="bills" filter={filter} sort={sort} noun="bills" />
        <Button variant="primary" onClick={openNew}>
          New bill
        </Button>
      </div>
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. New bills, edits and submissions are saved on this device and sync later; payments you confirm are queued and sent once when you’re back online. Other bulk actions need a connection.
        </p>
      )}
      <Tabs
        label="Status"
        tabs={STATUS_TABS.map((t) => ({ key: t.key, label: counts ? `${t.label} (${formatCount(counts[t.key])})` : t.label, panel: list }))}
        selected={tab}
        onSelect={(next) => setSearch({ status: next === 'all' ? undefined : next })}
      />
      {search.open && (
        <BillDrawer
          id={search.open}
          client={client}
          reference={reference}
          version={dataVersion}
          online={online}
          today={today}
          onEdit={(bill) => setForm({ bill })}
          onClose={closeDrawer}
          returnFocus={gridElement}
        />
      )}
      {form && (
        <BillFormDialog
          {...(form.bill ? { bill: form.bill } : {})}
          templateId={form.templateId}
          client={client}
          reference={reference}
          currency={currency}
          onClose={() => setForm(null)}
          onSaved={(id) => {
            setForm(null);
            setSearch({ open: id });
          }}
          returnFocus={gridElement}
        />
      )}
    </div>
  );
}

