import { ClaimIcon } from '../../components/claim-icon.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { StatusPill } from '../../components/status-pill.tsx';
import { SyncMark } from '../../components/sync-mark.tsx';
import { formatClaimDate } from '../../lib/claim-labels.ts';
import { formatCount, formatMoney, formatShortDay } from '../../lib/format.ts';
import { listKeyHint } from '../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../lib/list/list-spec.ts';
import type { InboxRow } from './approval-rows.ts';
import { APPROVAL_LABELS, APPROVAL_TONES } from './approval-labels.ts';
import type { InboxTab, InboxType } from './search-params.ts';

/** A row as a card on a phone (`.grid-cards .approval-row` in phone.css has this height). */
const CARD_HEIGHT = 76;
/** The list's keys (no coding here) plus the inbox's a / r. */
const KEY_HINT = listKeyHint({ select: true, scopes: ['approvals'] });

const amountText = (row: InboxRow) => (row.amount !== null && row.currency ? formatMoney(row.amount, row.currency) : '—');

/**
 * The inbox grid's columns: claimant (or requester; the name from reference data, which can
 * arrive after the rows were read), type (a claim's type, "Card request", a bill), description (a
 * card request's card, limit and reason), date, amount, when it was submitted, the review's
 * status and its sync mark. On a phone the same rows are cards (phone.css).
 */
export function inboxColumns(userName: (id: string) => string, delegatedFor: ReadonlyMap<string, string> = new Map()): readonly ListColumn<InboxRow>[] {
  // Issue 29: a pending approval waiting for someone the viewer stands in for says "for Y".
  const forWhom = (row: InboxRow) => (row.approval.status === 'PENDING' && row.approval.approver_id ? delegatedFor.get(row.approval.approver_id) : undefined);
  return [
    {
      key: 'claimant', header: 'Submitted by', className: 'cell-claimant',
      cell: (row) => {
        const delegator = forWhom(row);
        return (
          <>
            {userName(row.approval.user_id) || row.claimant}
            {delegator && <span className="muted approval-for"> · for {delegator}</span>}
          </>
        );
      },
    },
    {
      key: 'type',
      header: 'Type',
      className: 'cell-type',
      cell: (row) => (
        <>
          {row.claim && <ClaimIcon type={row.claim.type} />}
          {(row.kind === 'card_request' || row.spendRequest?.type === 'PHYSICAL_CARD') && <CardRequestIcon />}
          {row.spendRequest && row.spendRequest.type !== 'PHYSICAL_CARD' && <SpendRequestIcon purchase={row.spendRequest.type === 'PRODUCT_OR_SERVICE'} />}
          <span className="claim-type-label">{row.typeLabel}</span>
        </>
      ),
    },
    {
      key: 'description',
      header: 'Description',
      className: 'cell-merchant',
      title: (row) => row.claim?.memo ?? row.reason ?? undefined,
      cell: (row) => (
        <>
          {row.description}
          {row.reason && <span className="muted"> · {row.reason}</span>}
        </>
      ),
    },
    { key: 'date', header: 'Date', className: 'cell-date', cell: (row) => (row.date ? formatClaimDate(row.date) : '') },
    { key: 'amount', header: 'Amount', className: 'cell-amount', cell: amountText },
    {
      key: 'submitted',
      header: 'Submitted',
      className: 'cell-submitted',
      cell: (row) => <time dateTime={row.submitted_at}>{formatShortDay(row.submitted_at)}</time>,
    },
    {
      key: 'status',
      header: 'Status',
      className: 'cell-status',
      cell: (row) => (
        <span className="marks">
          <StatusPill tone={APPROVAL_TONES[row.approval.status]}>{APPROVAL_LABELS[row.approval.status]}</StatusPill>
          <SyncMark row={row} />
        </span>
      ),
    },
  ];
}

export interface InboxSpecOptions {
  tab: InboxTab;
  type: InboxType | undefined;
  /** The search box's text, and whether it narrows the tab. */
  q: string;
  searching: boolean;
  /** The first mirror is complete (an empty search result is then the whole truth). */
  mirrored: boolean;
  /** The viewer reviews by role (else only what a chain names them for). */
  reviewer: boolean;
  /** The tab has answered with no row (and is not still reading saved rows). */
  empty: boolean;
  columns: readonly ListColumn<InboxRow>[];
  userName(id: string): string;
  matchingIds(): Promise<string[]>;
  approve(): void;
  reject(): void;
  clearSearch(): void;
}

/**
 * The inbox list, declared: a selection bar that stays (the count waiting or decided, "Select
 * all", Approve / Reject… on the Pending tab: the selection, else the current row), a / r, the
 * empty words, and the blank states (a search that matches nothing; nothing waiting).
 */
export function inboxSpec(o: InboxSpecOptions): ListSpec<InboxRow> {
  const noun = o.tab === 'pending' ? 'waiting' : 'decided';
  const blank = o.empty ? inboxBlank(o) : undefined;
  return {
    label: 'Approvals',
    rowIdPrefix: 'approval-row',
    rowClassName: 'approval-row',
    gridClassName: 'grid-approvals',
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: o.columns,
    pending: (row) => row.pending,
    select: {
      label: (row) => `Select ${o.userName(row.approval.user_id) || row.claimant}: ${row.summary}, ${amountText(row)}`,
      matchingIds: o.matchingIds,
      // No count while the saved approvals are still being read: "0 waiting" would not be true yet.
      idleText: (total) => (total === null ? 'Loading…' : `${formatCount(total)} ${noun}${o.searching ? ' match' : ''}`),
      actions: o.tab === 'pending'
        ? [
            { key: 'approve', variant: 'primary', label: (n) => (n > 1 ? `Approve ${n}` : 'Approve'), run: o.approve },
            { key: 'reject', variant: 'danger', label: (n) => (n > 1 ? `Reject ${n}…` : 'Reject…'), run: o.reject },
          ]
        : [],
    },
    shortcuts: { scope: 'approvals', ids: ['approvals.approve', 'approvals.reject'], run: (id) => (id === 'approvals.approve' ? o.approve() : o.reject()) },
    emptyText: o.tab === 'pending' ? 'You’re all caught up' : 'No decisions yet',
    ...(blank ? { blank } : {}),
    waitingText: 'Opening your saved approvals…',
    loadingWhat: 'approvals',
    keyHint: KEY_HINT,
  };
}

/** What an empty tab shows instead of the grid: a search's "no match", or the Pending tab's "nothing waits". */
function inboxBlank(o: InboxSpecOptions) {
  const q = o.q.trim();
  if (o.searching) {
    return (
      <EmptyState title={o.mirrored ? `No approvals match “${q}”` : `Nothing downloaded so far matches “${q}”`}>
        {o.mirrored
          ? 'Search looks at who submitted it, the vendor or merchant, the memo, the amount and the invoice number. Try fewer words.'
          : 'Approvals are still downloading to this device: more may match once it finishes.'}{' '}
        <button type="button" className="btn-link" onClick={o.clearSearch}>
          Clear search
        </button>
      </EmptyState>
    );
  }
  if (o.tab !== 'pending') return undefined;
  return o.reviewer ? (
    <EmptyState title="You’re all caught up">{caughtUpText(o.type)}</EmptyState>
  ) : (
    <EmptyState title="Nothing waiting for you">
      When an approval chain names you as an approver (a bill’s, say), what waits for your decision shows up here.
    </EmptyState>
  );
}

/** The empty Pending tab's words, for the Type filter's choice. */
function caughtUpText(type: InboxType | undefined): string {
  const what = type === 'claims' ? 'claims' : type === 'card_requests' ? 'card requests' : type === 'bills' ? 'bills'
    : type === 'spend_requests' ? 'spend requests' : 'claims, card requests, spend requests and bills';
  return `Nothing waits for your review. New ${what} from your team show up here.`;
}

/** A card's glyph beside "Card request" (decorative: the words are always beside it). */
function CardRequestIcon() {
  return (
    <svg className="claim-icon" width={16} height={16} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M1.5 3.5h13v9h-13zM1.5 6.5h13M3.5 10h3" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}

/** A spend request's glyph: a box for a purchase, a wallet for a budget (decorative). */
function SpendRequestIcon({ purchase }: { purchase: boolean }) {
  return (
    <svg className="claim-icon" width={16} height={16} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={purchase ? 'M2 5.5 8 2.5l6 3v6l-6 3-6-3zM2 5.5l6 3 6-3M8 8.5v6' : 'M2 4.5h12v8H2zM2 7h12M10.5 10h2'} fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" />
    </svg>
  );
}
