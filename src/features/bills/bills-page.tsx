import { useCallback, useEffect, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { BillSort } from '../../../schema/entities/bill.ts';
import { Button } from '../../components/button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { localDay } from '../../lib/bill-labels.ts';
import type { Command } from '../../lib/commands.ts';
import { formatCount } from '../../lib/format.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { BillDrawer } from './bill-drawer.tsx';
import { BillPayNav } from './bill-pay-nav.tsx';
import { BillFormDialog } from './bill-form-dialog.tsx';
import { billsSpec } from './bills-list.tsx';
import { BillBulkActions } from './bulk-bar.tsx';
import { clearNewBillRequest, newBillCommand, peekNewBillRequest } from './commands.ts';
import type { BulkOutcome } from './run-bill-call.ts';
import { DEFAULT_SORT, filterFor, queryKey, STATUS_TABS, type BillsSearch, type StatusTab } from './search-params.ts';
import { matchingBillIds, useBillRows, useBulkBillLimit, useSelectedBills, useTabCounts, type BillView } from './use-bills.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/bills');

type FormState = { bill?: BillView; templateId?: string } | null;

/**
 * "New bill" from the palette on another page, or a link with new=bill: the form opens with the
 * list. A template (`template=<id>`, the Templates page's "Use template") is what it starts from.
 */
function useBillForm(search: BillsSearch, setSearch: (patch: Partial<BillsSearch>) => void) {
  const [form, setForm] = useState<FormState>(() =>
    (peekNewBillRequest() || search.new === 'bill' ? (search.new === 'bill' && search.template ? { templateId: search.template } : {}) : null));
  useEffect(() => {
    clearNewBillRequest();
    if (search.new || search.template) setSearch({ new: undefined, template: undefined });
  }, [search.new, search.template, setSearch]);
  return [form, setForm] as const;
}

/** The reference data's vendors by id: their names (they can arrive after the rows) and the vendors themselves. */
function useVendorLookups(vendors: ReturnType<typeof useReferenceData>['data']['vendors']) {
  const byId = useMemo(() => new Map(vendors.map((v) => [v.id, v])), [vendors]);
  const vendorName = useCallback((id: string) => byId.get(id)?.name ?? '', [byId]);
  const vendorOf = useCallback((id: string) => byId.get(id), [byId]);
  return { vendorName, vendorOf };
}

/**
 * Issue 11: /bills, for those who manage bill pay (§6). The bills are mirrored: the list (the
 * declarative list page, bills-list.tsx) reads the worker (search on every keystroke, tabs by
 * status with counts, sort), bills created or edited offline show at once with their sync mark.
 * New bill and Edit open the bill form; the bulk actions and payments are direct calls, online
 * only (paying is queued offline), answered per bill.
 */
export function BillsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  const dataVersion = useAppState((s) => s.dataVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const setSearch = useCallback(
    (patch: Partial<BillsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const tab: StatusTab = search.status ?? 'all';
  const sort: BillSort = search.sort ?? DEFAULT_SORT;
  const filter = useMemo(() => filterFor(tab, q), [tab, q]);
  const rows = useBillRows(client, filter, sort, dataVersion);
  const total = rows.total ?? 0;
  const counts = useTabCounts(client, q, dataVersion);
  const [form, setForm] = useBillForm(search, setSearch);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const openNew = useCallback(() => setForm({}), [setForm]);
  const openRow = useCallback((row: BillView) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const matchingIds = useCallback(() => matchingBillIds(client, filter, sort), [client, filter, sort]);
  const list = useListPage({ key: queryKey(filter, sort), rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen: form !== null, matchingIds });
  const { selection, gridElement, focusSearch } = list;
  const bulkLimit = useBulkBillLimit(client);
  const selected = useSelectedBills(client, selection.ids, dataVersion, bulkLimit);
  // A bill's due date is a calendar day: what is overdue changes at local midnight (re-read with the data).
  const today = useMemo(() => localDay(), [dataVersion]); // eslint-disable-line react-hooks/exhaustive-deps
  const { vendorName, vendorOf } = useVendorLookups(reference.data.vendors);

  usePageCommands(
    useMemo<Command[]>(
      () => [newBillCommand(openNew), { id: 'bills.search', label: 'Search bills', group: 'Bills', keywords: ['find', 'invoice', 'vendor'], run: focusSearch }],
      [openNew, focusSearch],
    ),
  );

  const nothingYet = counts !== null && counts.all === 0 && !q.trim() && !rows.waiting;
  const spec = billsSpec({
    q, setQ, filter, sort, setSearch, today, vendorName, matchingIds, nothingYet, onNew: openNew,
    bar: <BillBulkActions client={client} selection={selection} selected={selected} online={online} limit={bulkLimit} vendorName={vendorName} vendorOf={vendorOf}
      onDone={setOutcome} returnFocus={gridElement} />,
    notices: outcome && (
      <div className={outcome.failed > 0 ? 'notice notice-warn bulk-outcome' : 'notice bulk-outcome'} role="status" data-testid="bulk-outcome">
        <span>{outcome.text}</span>
        <Button size="sm" variant="ghost" onClick={() => setOutcome(null)}>
          Dismiss
        </Button>
      </div>
    ),
  });
  // With no bill at all, the blank state shows on every tab.
  const filtered = !nothingYet && (filter.q !== undefined || filter.statuses !== undefined);
  const panel = <ListPage spec={spec} list={list} loading={rows.total === null} filtered={filtered} quiet={form !== null} />;

  return (
    <div className="bills">
      <BillPayNav current="/bills" />
      <div className="page-header">
        <h1>Bills</h1>
        <SavedViewsBar list="bills" />
        {rows.total !== null && total > 0 && (
          <span className="page-label" data-testid="bill-count">
            {formatCount(total)} {total === 1 ? 'bill' : 'bills'}
          </span>
        )}
        <span className="spacer" />
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
        tabs={STATUS_TABS.map((t) => ({ key: t.key, label: counts ? `${t.label} (${formatCount(counts[t.key])})` : t.label, panel }))}
        selected={tab}
        onSelect={(next) => setSearch({ status: next === 'all' ? undefined : next })}
      />
      {search.open && (
        <BillDrawer id={search.open} client={client} reference={reference} version={dataVersion} online={online} today={today}
          onEdit={(bill) => setForm({ bill })}
          onClose={() => {
            closeRow();
            gridElement()?.focus();
          }}
          returnFocus={gridElement} />
      )}
      {form && (
        <BillFormDialog {...(form.bill ? { bill: form.bill } : {})} templateId={form.templateId} client={client} reference={reference} currency={currency}
          onClose={() => setForm(null)}
          onSaved={(id) => {
            setForm(null);
            setSearch({ open: id });
          }}
          returnFocus={gridElement} />
      )}
    </div>
  );
}
