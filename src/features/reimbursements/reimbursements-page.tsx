import { SearchBox } from '../../components/search-box.tsx';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { usePageShortcuts } from '../../lib/list/use-page-shortcuts.ts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import type { ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import { clampPageIndex, pageLabel } from '../../../schema/paging.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListSkeleton } from '../../components/skeleton.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import type { Command } from '../../lib/commands.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import type { SelectionApi } from '../../lib/list/use-selection.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { partialResultsText } from '../../lib/sync-status-text.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { ClaimDrawer } from './claim-drawer.tsx';
import { ClaimIcon } from './claim-icon.tsx';
import { ClaimFormDialog, localToday } from './claim-form-dialog.tsx';
import { emptyClaimValues, prefillFromReceipt, type ClaimFormValues } from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';
import { clearNewClaimRequest, newClaimCommands, peekNewClaimRequest } from './commands.ts';
import { NewClaimMenu } from './new-claim-menu.tsx';
import { ReimbursementsTable } from './reimbursements-table.tsx';
import { filterFromSearch, queryKey, SORT, STATUS_TABS, type ReimbursementsSearch, type StatusTab } from './search-params.ts';
import { useClaimRows } from './use-claim-rows.ts';
import { matchingIds } from '../../lib/list/collection-reads.ts';
import { TableFooter } from '../../components/table-footer.tsx';
import { formatCount } from '../../lib/format.ts';

const routeApi = getRouteApi('/_app/reimbursements');
/** The list's keys minus selection and coding (claims have no bulk action yet), plus 'n'. */
const KEY_HINT = footerHint(['list', 'reimbursements', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.toggle' && s.id !== 'list.code'));

/** Claims have no bulk action: the table keys get a selection that holds nothing. */
const NO_SELECTION: SelectionApi = {
  ids: new Set<string>(),
  toggle: () => undefined,
  range: async () => undefined,
  add: () => undefined,
  selectAllMatching: async () => undefined,
  clear: () => undefined,
};

type FormState = { type: ReimbursementType; claim?: ClaimView; receiptIds?: string[]; prefill?: Partial<ClaimFormValues> } | null;

export function ReimbursementsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));
  const currency = session?.business.currency ?? 'USD';

  const setSearch = useCallback(
    (patch: Partial<ReimbursementsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const tab: StatusTab = search.status ?? 'all';
  const filter = useMemo(() => filterFromSearch({ q, status: tab }), [q, tab]);
  const key = queryKey(filter);
  const owner = useMemo(() => ({ user_id: session?.user.id ?? '', business_id: session?.business.id ?? '' }), [session]);
  const rows = useClaimRows(client, filter, dataVersion);
  const total = rows.total ?? 0;
  const filtered = filter.q !== undefined || filter.statuses !== undefined;
  const partial = useAppState((s) => (rows.total === null ? null : partialResultsText(s.status, total, filtered, ['reimbursement', 'reimbursements'])));
  // A "New …" command run from another page asked for its form: open it with the list.
  const [form, setForm] = useState<FormState>(() => {
    const requested = peekNewClaimRequest();
    return requested ? { type: requested } : null;
  });
  const [topPage, setTopPage] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const openNew = useCallback((type: ReimbursementType) => setForm({ type }), []);
  const openRow = useCallback((row: ClaimView) => setSearch({ open: row.id }), [setSearch]);
  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);
  const focusSearch = useCallback(() => searchRef.current?.focus(), []);

  useEffect(clearNewClaimRequest, []);
  // "Create out-of-pocket claim" from the Receipts inbox: the form with that receipt and what was read from it.
  useEffect(() => {
    if (search.new !== 'out_of_pocket') return;
    const receipt = search.receipt;
    setSearch({ new: undefined, receipt: undefined });
    const inbox = receipt ? client.receiptInbox() : Promise.resolve([]);
    void inbox.then(
      (inbox) => {
        const read = inbox.find((r) => r.id === receipt || r.local_id === receipt)?.extracted;
        const prefill = read ? prefillFromReceipt(emptyClaimValues(currency, localToday()), read, localToday()).values : undefined;
        setForm({ type: 'OUT_OF_POCKET', ...(receipt ? { receiptIds: [receipt] } : {}), ...(prefill ? { prefill } : {}) });
      },
      () => setForm({ type: 'OUT_OF_POCKET', ...(receipt ? { receiptIds: [receipt] } : {}) }),
    );
  }, [search.new, search.receipt, setSearch, client, currency]);
  usePageCommands(useMemo<Command[]>(() => newClaimCommands((type) => openNew(type)), [openNew]));
  usePageShortcuts(form === null, 'reimbursements', ['reimbursements.new'], () => openNew('OUT_OF_POCKET'));

  const active = useTableKeys({
    key,
    total,
    rows,
    selection: NO_SELECTION,
    drawerOpen: search.open !== undefined,
    dialogOpen: form !== null,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: focusSearch,
  });
  const onRowClick = useCallback(
    (index: number, row: ClaimView) => {
      active.set(index);
      openRow(row);
    },
    [active, openRow],
  );
  // A claim just created is shown at once wherever the list's order puts it (newest date first,
  // so an older receipt lands further down): its drawer opens, and the list scrolls to its row,
  // made current. When the search or tab hides it, they are cleared first.
  const [located, setLocated] = useState<string | null>(null);
  const setActive = active.set;
  useEffect(() => {
    if (!located) return;
    let stale = false;
    void matchingIds(client, 'reimbursements', filter, SORT).then((ids) => {
      if (stale) return;
      const index = ids.indexOf(located);
      if (index < 0) {
        if (filtered) setSearch({ q: undefined, status: undefined, open: located });
        else setLocated(null);
        return;
      }
      if (index >= total) return; // the list has not counted it yet: again with the next total
      setActive(index);
      setLocated(null);
    });
    return () => {
      stale = true;
    };
  }, [located, client, filter, filtered, total, setActive, setSearch]);
  const onSaved = useCallback(
    (id: string, created: boolean) => {
      setForm(null);
      if (!created) return;
      setSearch({ open: id });
      setLocated(id);
    },
    [setSearch],
  );

  const onVisibleRange = useCallback((first: number) => setTopPage(Math.floor(first / DEFAULT_PAGE_SIZE)), []);
  const page = clampPageIndex(topPage, total, DEFAULT_PAGE_SIZE);
  const nothingYet = rows.total === 0 && !filtered && !rows.waiting;

  const list = (
    <>
      {partial && (
        <p className="partial-notice" role="note" data-testid="partial-results">
          {partial}
        </p>
      )}
      {rows.total === null ? (
        <ListSkeleton what="reimbursements" />
      ) : nothingYet ? (
        <EmptyState title="No reimbursements yet" icon={<ClaimIcon type="OUT_OF_POCKET" size={32} />} action={<NewClaimMenu label="New reimbursement" onChoose={openNew} />}>
          Claim back what you paid yourself: a purchase, the miles you drove, or a trip’s per diem.
        </EmptyState>
      ) : (
        <ReimbursementsTable
          rows={rows}
          total={total}
          loaded={rows.total !== null}
          filtered={filtered}
          active={active.index}
          openId={search.open}
          queryKey={key}
          scrollRef={scrollRef}
          onRowClick={onRowClick}
          onKeyDown={active.onGridKeyDown}
          onFocus={active.onGridFocus}
          onVisibleRange={onVisibleRange}
        />
      )}
      <TableFooter hint={KEY_HINT} />
    </>
  );

  return (
    <div className="reimbursements">
      <div className="page-header">
        <h1>Reimbursements</h1>
        {/* Only with words in it: an empty span named by aria-label is an ARIA error (axe). */}
        {rows.total !== null && total > 0 && (
          <span className="page-label" aria-label="Showing">
            {pageLabel(page, DEFAULT_PAGE_SIZE, total, formatCount)}
          </span>
        )}
        <SearchBox id="reimb-search" label="Search reimbursements" placeholder="Search merchant, memo…" ref={searchRef} value={q} onChange={setQ} onLeave={() => gridElement()?.focus()} />
        <ExportCsvButton collection="reimbursements" filter={filter} sort={SORT} noun="claims" />
        <NewClaimMenu onChoose={openNew} />
      </div>
      <Tabs
        label="Status"
        tabs={STATUS_TABS.map((t) => ({ key: t.key, label: t.label, panel: list }))}
        selected={tab}
        onSelect={(next) => setSearch({ status: next === 'all' ? undefined : next })}
      />
      {search.open && (
        <ClaimDrawer
          id={search.open}
          client={client}
          reference={reference}
          dataVersion={dataVersion}
          owner={owner}
          onEdit={(claim) => setForm({ type: claim.type, claim })}
          onClose={closeDrawer}
          returnFocus={gridElement}
        />
      )}
      {form && (
        <ClaimFormDialog
          type={form.type}
          claim={form.claim}
          {...(form.receiptIds ? { receiptIds: form.receiptIds } : {})}
          {...(form.prefill ? { prefill: form.prefill } : {})}
          client={client}
          reference={reference}
          currency={currency}
          onClose={() => setForm(null)}
          onSaved={(id) => onSaved(id, !form.claim)}
          returnFocus={gridElement}
        />
      )}
    </div>
  );
}




