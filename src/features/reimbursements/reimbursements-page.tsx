import { useCallback, useMemo, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE } from '../../../schema/constants.ts';
import { clampPageIndex, pageLabel } from '../../../schema/paging.ts';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import { usePageData } from '../../lib/use-page-data.ts';
import { formatCount } from '../../lib/format.ts';
import { ListPage } from '../../lib/list/list-page.tsx';
import { useListPage } from '../../lib/list/use-list-page.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { ClaimDrawer } from './claim-drawer.tsx';
import { ClaimFormDialog } from './claim-form-dialog.tsx';
import type { ClaimView } from './claim-labels.ts';
import { claimsSpec } from './claims-list.tsx';
import { NewClaimMenu } from './new-claim-menu.tsx';
import { filterFromSearch, queryKey, SORT, STATUS_TABS, type ReimbursementsSearch, type StatusTab } from './search-params.ts';
import { linkClaimToTrip, useClaimForms, useLocateCreated } from './use-claim-page.ts';
import { useClaimRows } from './use-claim-rows.ts';
import { SavedViewsBar } from '../../components/saved-views/saved-views-bar.tsx';

const routeApi = getRouteApi('/_app/reimbursements');

/**
 * Issue 9 §4: /reimbursements, the caller's claims as the declarative list (claims-list.tsx)
 * under status tabs, with the claim drawer and the claim forms (New ▾ menu, 'n', the palette, a
 * link from the Receipts inbox). Search, tab and the open claim live in the URL.
 */
export function ReimbursementsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { client, session, currency, dataVersion } = usePageData();
  const reference = useReferenceData(client, useAppState((s) => s.referenceVersion));

  const setSearch = useCallback(
    (patch: Partial<ReimbursementsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const tab: StatusTab = search.status ?? 'all';
  const filter = useMemo(() => filterFromSearch({ q, status: tab }), [q, tab]);
  const filtered = filter.q !== undefined || filter.statuses !== undefined;
  const owner = useMemo(() => ({ user_id: session?.user.id ?? '', business_id: session?.business.id ?? '' }), [session]);
  const rows = useClaimRows(client, filter, dataVersion);
  const { form, setForm, openNew } = useClaimForms({ client, currency, search, setSearch });

  const [topPage, setTopPage] = useState(0);
  const onVisibleRange = useCallback((first: number) => setTopPage(Math.floor(first / DEFAULT_PAGE_SIZE)), []);
  const openRow = useCallback((row: ClaimView) => setSearch({ open: row.id }), [setSearch]);
  const closeRow = useCallback(() => setSearch({ open: undefined }), [setSearch]);
  const list = useListPage({ key: queryKey(filter), rows, openId: search.open, onOpen: openRow, onClose: closeRow, dialogOpen: form !== null, onVisibleRange });
  const { gridElement, total } = list;
  const locate = useLocateCreated({ client, filter, filtered, total, setActive: list.active.set, setSearch });
  // A claim just created opens in its drawer, its row found in the list; an edit only closes the form.
  const onSaved = useCallback(
    (id: string, created: boolean) => {
      setForm(null);
      if (!created) return;
      setSearch({ open: id });
      locate(id);
    },
    [setForm, setSearch, locate],
  );
  const waiting = rows.waiting;
  const spec = useMemo(() => claimsSpec({ q, setQ, filtered, waiting, onNew: openNew }), [q, setQ, filtered, waiting, openNew]);
  const page = clampPageIndex(topPage, total, DEFAULT_PAGE_SIZE);
  const body = <ListPage spec={spec} list={list} loading={rows.total === null} filtered={filtered} quiet={form !== null} />;

  return (
    <div className="reimbursements">
      <div className="page-header">
        <h1>Reimbursements</h1>
        <SavedViewsBar list="reimbursements" />
        {/* Only with words in it: an empty span named by aria-label is an ARIA error (axe). */}
        {rows.total !== null && total > 0 && (
          <span className="page-label" aria-label="Showing">
            {pageLabel(page, DEFAULT_PAGE_SIZE, total, formatCount)}
          </span>
        )}
        <span className="spacer" />
        <ExportCsvButton collection="reimbursements" filter={filter} sort={SORT} noun="claims" />
        <NewClaimMenu onChoose={openNew} />
      </div>
      <Tabs
        label="Status"
        tabs={STATUS_TABS.map((t) => ({ key: t.key, label: t.label, panel: body }))}
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
          onClose={() => {
            closeRow();
            gridElement()?.focus();
          }}
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
          onSaved={(id) => {
            if (form.tripId && !form.claim) void linkClaimToTrip(client, form.tripId, id);
            onSaved(id, !form.claim);
          }}
          returnFocus={gridElement}
        />
      )}
    </div>
  );
}
