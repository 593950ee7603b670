import { useRowPointer } from '../../lib/list/use-row-pointer.ts';
import { usePageShortcuts } from '../../lib/list/use-page-shortcuts.ts';
import { useCallback, useMemo, useRef, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { canReviewReimbursements, isAdmin } from '../../../schema/roles.ts';
import { Link } from '@tanstack/react-router';
import { formatCount, formatMoney } from '../../lib/format.ts';
import { Button } from '../../components/button.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { canDecide } from '../../lib/claim-actions.ts';
import type { Command } from '../../lib/commands.ts';
import { headerCheckState } from '../../lib/list/selection.ts';
import { useSelection } from '../../lib/list/use-selection.ts';
import { useTableKeys } from '../../lib/list/use-table-keys.ts';
import { usePageCommands } from '../../lib/page-commands.ts';
import { useReferenceData } from '../../lib/reference-data.ts';
import { footerHint, SHORTCUTS } from '../../lib/shortcuts.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { InboxRow } from './approval-rows.ts';
import { ApprovalDrawer } from './approval-drawer.tsx';
import { ApprovalsTable } from './approvals-table.tsx';
import { decide } from './decide.ts';
import { RejectDialog } from './reject-dialog.tsx';
import { INBOX_TABS, INBOX_TYPES, inboxQuery, type ApprovalsSearch, type InboxTab, type InboxType } from './search-params.ts';
import { inboxIds, readApprovalRows, readInboxRow, useInboxRows } from './use-inbox-rows.ts';
import { TableFooter } from '../../components/table-footer.tsx';
import { SearchBox } from '../../components/search-box.tsx';
import { useInstantSearch } from '../../lib/use-instant-search.ts';
import { ApproveDialog } from './approve-dialog.tsx';
import { needsApprovalConfirm } from './approve-confirm.ts';
import { searchTerms } from './inbox-search.ts';

const routeApi = getRouteApi('/_app/approvals');
/** The list's keys (no coding here) plus a / r. */
const KEY_HINT = footerHint(['list', 'approvals', 'global'], SHORTCUTS.filter((s) => s.id !== 'list.code'));

/**
 * Issue 9 §3 and issue 10: the reviewer's inbox. Pending (oldest first) and Decided tabs over the
 * mirrored approvals joined with the claims and card requests they review (a Type filter narrows
 * to one kind), never the viewer's own. Approve or reject one or many
 * (checkboxes, x, "Select all"; a / r act on the selection, else the current row); each
 * decision is a command through the worker, shown at once with its sync mark, offline too.
 * Issue 25: a search box ('/') narrows the tab by requester, vendor or merchant, memo, amount and
 * invoice number (inbox-search.ts, over the mirror); approving bills is confirmed with the amounts.
 */
export function ApprovalsPage() {
  const user = useAppState((s) => s.session?.user ?? null);
  if (!user) return null;
  // Everyone has an inbox: reviewers by role, and anyone an approval chain names as a step's
  // approver (a bill's, say): the mirror holds exactly the approvals each may see.
  return <Inbox viewer={user} />;
}

function Inbox({ viewer }: { viewer: SpendUser }) {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const dataVersion = useAppState((s) => s.dataVersion);
  const referenceVersion = useAppState((s) => s.referenceVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const mirrored = useAppState((s) => s.status?.mirrored ?? false);
  const reference = useReferenceData(client, referenceVersion);
  const tab: InboxTab = search.tab ?? 'pending';
  const type = search.type;
  const setSearch = useCallback(
    (patch: Partial<ApprovalsSearch>) => void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true }),
    [navigate],
  );
  const writeQ = useCallback((next: string | undefined) => setSearch({ q: next }), [setSearch]);
  const [q, setQ] = useInstantSearch(search.q, writeQ);
  const searching = searchTerms(q).length > 0;
  const vendors = reference.data.vendors;
  const textSearch = useMemo(() => {
    const names = new Map(vendors.map((v) => [v.id, v.name]));
    return { q, names: { vendor: (id: string) => names.get(id) ?? '' } };
  }, [q, vendors]);
  const query = useMemo(() => inboxQuery(tab, viewer.id, type), [tab, viewer.id, type]);
  const rows = useInboxRows(client, query, dataVersion + referenceVersion, reference.names.user, textSearch);
  const rowsKey = searching ? `${query.key}|${searchTerms(q).join(' ')}` : query.key;
  const total = rows.total ?? 0;
  const selection = useSelection(rowsKey, rows, () => inboxIds(client, query, textSearch, reference.names.user));
  const selectedCount = selection.ids.size;
  const [rejecting, setRejecting] = useState<{ targets: InboxRow[]; subject?: string } | null>(null);
  const [confirming, setConfirming] = useState<InboxRow[] | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const gridElement = useCallback(() => scrollRef.current?.closest<HTMLElement>('[role="grid"]'), []);
  const openRow = useCallback((row: InboxRow) => setSearch({ open: row.id }), [setSearch]);
  const closeDrawer = useCallback(() => {
    setSearch({ open: undefined });
    gridElement()?.focus();
  }, [setSearch, gridElement]);
  const decidable = useCallback((row: InboxRow) => canDecide(row.approval, viewer), [viewer]);

  const active = useTableKeys({
    key: rowsKey,
    total,
    rows,
    selection,
    drawerOpen: search.open !== undefined,
    dialogOpen: rejecting !== null || confirming !== null,
    onOpen: openRow,
    onCloseDrawer: closeDrawer,
    onFocusSearch: () => searchRef.current?.focus(),
  });

  /** What a / r / the palette act on: the selection, else the current row; only what the viewer may decide. */
  const targets = useCallback(async (): Promise<InboxRow[] | null> => {
    const ids = selection.ids.size > 0 ? [...selection.ids] : [];
    let picked: InboxRow[] = [];
    if (ids.length > 0) {
      const loaded = new Map<string, InboxRow>();
      for (let i = 0; i < total; i++) {
        const r = rows.row(i);
        if (r) loaded.set(r.id, r);
      }
      // Selected rows outside the loaded windows are read by id: their status, submitter and kind.
      const unloaded = await readApprovalRows(client, ids.filter((id) => !loaded.has(id)), reference.names.user);
      const read = new Map(unloaded.map((r) => [r.id, r]));
      picked = ids.flatMap((id) => loaded.get(id) ?? read.get(id) ?? []);
    } else {
      const row = active.index >= 0 ? rows.row(active.index) : undefined;
      if (row) picked = [row];
    }
    if (picked.length === 0) {
      toastInfo('Select claims, card requests or bills to review');
      return null;
    }
    const open = picked.filter(decidable);
    if (open.length === 0) {
      toastInfo('Only pending approvals can be decided');
      return null;
    }
    return open;
  }, [selection.ids, rows, total, active.index, decidable, client, reference.names]);

  /** Approves at once, except bills: they move money, so they are confirmed with the amounts first. */
  const approve = useCallback(
    async (list?: InboxRow[]) => {
      const chosen = list ?? (await targets());
      if (!chosen) return;
      if (needsApprovalConfirm(chosen)) {
        // A bill selected outside the loaded windows was read without its bill: read it for the amounts.
        const full = await Promise.all(
          chosen.map(async (r) => (r.kind === 'bill' && !r.bill ? ((await readInboxRow(client, r.id, reference.names.user)) ?? r) : r)),
        );
        setConfirming(full);
        return;
      }
      const done = await decide(client, chosen, { kind: 'approve' }, online);
      if (done.length > 0) selection.clear();
    },
    [client, online, selection, targets, reference.names],
  );
  const askReject = useCallback(
    async (list?: InboxRow[]) => {
      const chosen = list ?? (await targets());
      if (!chosen) return;
      const one = chosen.length === 1 ? chosen[0] : undefined;
      const who = one ? reference.names.user(one.approval.user_id) || one.claimant : '';
      const subject = !one || one.amount === null || !one.currency
        ? undefined
        : one.kind === 'card_request' ? `${who}: ${one.summary}` : `${who}: ${one.summary}, ${formatMoney(one.amount, one.currency)}`;
      setRejecting({ targets: chosen, subject });
    },
    [targets, reference.names],
  );

  usePageShortcuts(rejecting === null && confirming === null, 'approvals', ['approvals.approve', 'approvals.reject'], (id) => void (id === 'approvals.approve' ? approve() : askReject()));
  usePageCommands(
    useMemo<Command[]>(
      () => [
        { id: 'approvals.approveSelected', label: 'Approve selected', group: 'Approvals', keywords: ['approve', 'review', 'claims', 'card requests', 'bills'], shortcut: 'approvals.approve', run: () => void approve() },
        { id: 'approvals.rejectSelected', label: 'Reject selected', group: 'Approvals', keywords: ['reject', 'decline', 'review'], shortcut: 'approvals.reject', run: () => void askReject() },
      ],
      [approve, askReject],
    ),
  );

  const { onRowClick, onToggle } = useRowPointer<InboxRow>(active, selection, openRow, false);

  const list = (
    <>
      <div className="bulk-bar approvals-bar" role="region" aria-label="Selection">
        {/* No count while the saved approvals are still being read: "0 waiting" would not be true yet. */}
        <strong>
          {selectedCount > 0
            ? `${formatCount(selectedCount)} selected`
            : rows.total === null || rows.waiting
              ? 'Loading…'
              : searching
                ? `${formatCount(total)} ${tab === 'pending' ? 'waiting' : 'decided'} match`
                : `${formatCount(total)} ${tab === 'pending' ? 'waiting' : 'decided'}`}
        </strong>
        {total > 0 && selectedCount < total && (
          <button type="button" className="btn-link" onClick={() => void selection.selectAllMatching()}>
            Select all
          </button>
        )}
        <span className="spacer" />
        {tab === 'pending' && (
          <>
            <Button variant="primary" size="sm" disabled={total === 0} onClick={() => void approve()}>
              {selectedCount > 1 ? `Approve ${selectedCount}` : 'Approve'}
            </Button>
            <Button variant="danger" size="sm" disabled={total === 0} onClick={() => void askReject()}>
              {selectedCount > 1 ? `Reject ${selectedCount}…` : 'Reject…'}
            </Button>
          </>
        )}
        {selectedCount > 0 && (
          <Button variant="ghost" size="sm" onClick={selection.clear}>
            Clear selection
          </Button>
        )}
      </div>
      {rows.total === 0 && !rows.waiting && searching ? (
        <EmptyState title={mirrored ? `No approvals match “${q.trim()}”` : `Nothing downloaded so far matches “${q.trim()}”`}>
          {mirrored
            ? 'Search looks at who submitted it, the vendor or merchant, the memo, the amount and the invoice number. Try fewer words.'
            : 'Approvals are still downloading to this device: more may match once it finishes.'}
          {' '}
          <button type="button" className="btn-link" onClick={() => setQ('')}>
            Clear search
          </button>
        </EmptyState>
      ) : rows.total === 0 && tab === 'pending' && !rows.waiting ? (
        canReviewReimbursements(viewer) ? (
          <EmptyState title="You’re all caught up">{caughtUpText(type)}</EmptyState>
        ) : (
          <EmptyState title="Nothing waiting for you">
            When an approval chain names you as an approver (a bill’s, say), what waits for your decision shows up here.
          </EmptyState>
        )
      ) : (
        <ApprovalsTable
          rows={rows}
          total={total}
          loaded={rows.total !== null}
          selected={selection.ids}
          headerState={headerCheckState(selectedCount, total)}
          active={active.index}
          openId={search.open}
          queryKey={rowsKey}
          emptyText={tab === 'pending' ? 'You’re all caught up' : 'No decisions yet'}
          userName={reference.names.user}
          scrollRef={scrollRef}
          onHeaderToggle={() => (selectedCount > 0 ? selection.clear() : void selection.selectAllMatching())}
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
    <div className="approvals">
      <div className="page-header">
        <h1>Approvals</h1>
        <SearchBox
          id="approvals-search"
          label="Search approvals"
          placeholder="Search requester, vendor, amount…"
          ref={searchRef}
          value={q}
          onChange={setQ}
          onLeave={() => gridElement()?.focus()}
        />
        <SelectField
          label="Type"
          variant="filter"
          value={type ?? ''}
          leading={[{ value: '', label: 'All' }]}
          options={INBOX_TYPES.map((t) => ({ value: t.key, label: t.label }))}
          onChange={(next) => setSearch({ type: next === '' ? undefined : (next as InboxType), open: undefined })}
        />
        {isAdmin(viewer) && (
          <Link to="/approvals/policy" className="btn btn-ghost btn-sm">
            Bill policy
          </Link>
        )}
      </div>
      <Tabs
        label="Approvals"
        tabs={INBOX_TABS.map((t) => ({ key: t.key, label: t.label, panel: list }))}
        selected={tab}
        onSelect={(next) => setSearch({ tab: next === 'pending' ? undefined : next, open: undefined })}
      />
      {search.open && (
        <ApprovalDrawer
          id={search.open}
          client={client}
          reference={reference}
          version={dataVersion}
          canDecide={decidable}
          onApprove={(row) => void approve([row])}
          onReject={(row) => void askReject([row])}
          onClose={closeDrawer}
          returnFocus={gridElement}
        />
      )}
      {confirming && (
        <ApproveDialog
          targets={confirming}
          onClose={() => setConfirming(null)}
          returnFocus={gridElement}
          onApprove={async () => {
            const done = await decide(client, confirming, { kind: 'approve' }, online);
            if (done.length > 0) selection.clear();
            setConfirming(null);
          }}
        />
      )}
      {rejecting && (
        <RejectDialog
          kinds={rejecting.targets.map((t) => t.kind)}
          subject={rejecting.subject}
          onClose={() => setRejecting(null)}
          returnFocus={gridElement}
          onReject={async (reason) => {
            const done = await decide(client, rejecting.targets, { kind: 'reject', reason }, online);
            if (done.length > 0) selection.clear();
            setRejecting(null);
          }}
        />
      )}
    </div>
  );
}

/** The empty Pending tab's words, for the Type filter's choice. */
function caughtUpText(type: InboxType | undefined): string {
  const what = type === 'claims' ? 'claims' : type === 'card_requests' ? 'card requests' : type === 'bills' ? 'bills' : 'claims, card requests and bills';
  return `Nothing waits for your review. New ${what} from your team show up here.`;
}


