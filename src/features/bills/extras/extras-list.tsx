import type { ReactNode } from 'react';
import type { RecurringBillTemplate } from '../../../../schema/entities/recurring-bill.ts';
import type { BillTemplate } from '../../../../schema/api/calls-bill-extras.ts';
import type { VendorCredit } from '../../../../schema/entities/vendor-credit.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ListStatus } from '../../../components/online-list-status.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import type { OnlineList } from '../../../lib/use-online-list.ts';
import { BillPayNav, type BillPayPath } from '../bill-pay-nav.tsx';
import { formatDay, formatMoney } from '../../../lib/format.ts';
import { listKeyHint } from '../../../lib/list/key-hint.ts';
import { LocalList } from '../../../lib/list/local-list.tsx';
import type { ListColumn, ListSpec } from '../../../lib/list/list-spec.ts';
import { frequencyText } from './recurring.ts';
import { linesSummary, templateAmount } from './extras-forms.ts';

/** A row of two lines (a name and what it holds under it). */
const TWO_LINE_ROW = 56;

export interface ExtrasPageProps<T extends { id: string }> {
  /** The page's heading, and the grid's and the list states' name ("Recurring bills"). */
  title: string;
  current: BillPayPath;
  /** "New recurring bill": the header's button (and the blank state's), disabled offline. */
  newLabel: string;
  onNew(): void;
  /** Header content before the button (the credits' vendor filter). */
  headerExtra?: ReactNode;
  online: boolean;
  list: OnlineList<unknown>;
  reload(): void;
  /** Why the list cannot be shown offline. */
  offlineBody: string;
  /** The blank state: no row at all. */
  blankTitle: string;
  blankBody: string;
  /** The rows' class (its column template), and what the list holds now (a new vendor filter starts it over). */
  rowClassName: string;
  queryKey: string;
  items: readonly T[];
  columns: readonly ListColumn<T>[];
  rowActions(row: T): ReactNode;
  /** Enter or a click on a row (recurring bills open their edit form). */
  onOpen?(row: T): void;
  /** A dialog of the page is open: the list's keys are quiet. */
  dialogOpen: boolean;
  /** Lines above the grid (credits remaining by vendor). */
  notices?: ReactNode;
  /** The page's dialogs. */
  children?: ReactNode;
}

/**
 * A bill pay extras page (recurring bills, templates, vendor credits): the sub-navigation, the
 * header and its "New …" button, the server-only list's states (loading, offline, refused), the
 * blank state, and the rows as the declarative list (j/k and Enter; each row's buttons in its last cell).
 */
export function ExtrasPage<T extends { id: string }>(p: ExtrasPageProps<T>) {
  const newButton = (
    <Button variant="primary" onClick={p.onNew} disabled={!p.online}>
      {p.newLabel}
    </Button>
  );
  const spec: ListSpec<T> = {
    label: p.title,
    rowIdPrefix: p.rowClassName,
    rowClassName: `extras-row ${p.rowClassName}`,
    gridClassName: 'grid-extras',
    rowHeight: TWO_LINE_ROW,
    columns: p.columns,
    rowActions: p.rowActions,
    notices: p.notices,
    emptyText: `No ${p.title.toLowerCase()} here`,
    waitingText: `Opening ${p.title.toLowerCase()}…`,
    loadingWhat: p.title.toLowerCase(),
    keyHint: listKeyHint({ open: p.onOpen !== undefined, search: false }),
  };
  return (
    <div className="bills bill-extras">
      <BillPayNav current={p.current} />
      <div className="page-header">
        <h1>{p.title}</h1>
        <span className="spacer" />
        {p.headerExtra}
        {newButton}
      </div>
      <ListStatus list={p.list} what={p.title} offlineBody={p.offlineBody} online={p.online} onRetry={p.reload} />
      {p.list.state === 'ready' && p.items.length === 0 && (
        <EmptyState title={p.blankTitle} action={newButton}>
          {p.blankBody}
        </EmptyState>
      )}
      {p.items.length > 0 && (
        <LocalList spec={spec} items={p.items} queryKey={p.queryKey} dialogOpen={p.dialogOpen} {...(p.onOpen ? { onOpen: p.onOpen } : {})} />
      )}
      {p.children}
    </div>
  );
}

const sub = (text: ReactNode) => <span className="extras-sub muted">{text}</span>;

/** Recurring bills: what (and its memo), vendor, amount, frequency, the next bill, status. */
export function recurringColumns(vendorName: (id: string) => string): ListColumn<RecurringBillTemplate>[] {
  return [
    { key: 'name', header: 'Name', rowHeader: true, cell: (t) => <>{linesSummary(t)}{t.memo && sub(t.memo)}</> },
    { key: 'vendor', header: 'Vendor', cell: (t) => vendorName(t.vendor_id) },
    { key: 'amount', header: 'Amount', className: 'num', cell: (t) => formatMoney(t.amount, t.currency) },
    { key: 'frequency', header: 'Frequency', cell: (t) => frequencyText(t) },
    {
      key: 'next', header: 'Next bill',
      cell: (t) => (
        <>
          {t.next_period_start ? formatDay(t.next_period_start) : <span className="muted">{t.status === 'PAUSED' ? 'None while paused' : 'Schedule ended'}</span>}
          {sub(`${t.generated_count === 0 ? 'No bills made yet' : `${t.generated_count} ${t.generated_count === 1 ? 'bill' : 'bills'} made`}${t.submit_for_approval ? ' · sent for approval' : ' · as drafts'}`)}
        </>
      ),
    },
    { key: 'status', header: 'Status', cell: (t) => <RecurringStatus t={t} /> },
  ];
}

/** Active or Paused, as the server says; an active one whose schedule is over says so, and a period that failed says why. */
function RecurringStatus({ t }: { t: RecurringBillTemplate }) {
  return (
    <span className="extras-status">
      {t.status === 'PAUSED' ? <StatusPill tone="warn">Paused</StatusPill>
        : t.next_period_start ? <StatusPill tone="ok">Active</StatusPill>
          : <StatusPill tone="neutral" title="Its end date or number of bills is reached.">Ended</StatusPill>}
      {t.last_error && <span className="extras-sub extras-error-text">Last bill failed: {t.last_error}</span>}
    </span>
  );
}

/** Bill templates: name (and memo), vendor, lines, amount. */
export function templateColumns(vendorName: (id: string) => string): ListColumn<BillTemplate>[] {
  return [
    { key: 'name', header: 'Name', rowHeader: true, cell: (t) => <>{t.name}{t.memo && sub(t.memo)}</> },
    { key: 'vendor', header: 'Vendor', cell: (t) => vendorName(t.vendor_id) },
    { key: 'lines', header: 'Lines', cell: (t) => linesSummary(t) },
    { key: 'amount', header: 'Amount', className: 'num', cell: (t) => formatMoney(templateAmount(t), t.currency) },
  ];
}

/** Vendor credits: the credit note, vendor, date, amount, applied, remaining, memo. */
export function creditColumns(vendorName: (id: string) => string): ListColumn<VendorCredit>[] {
  return [
    { key: 'note', header: 'Credit note', rowHeader: true, className: 'mono', cell: (c) => c.credit_note_number },
    { key: 'vendor', header: 'Vendor', cell: (c) => vendorName(c.vendor_id) },
    { key: 'date', header: 'Date', cell: (c) => formatDay(c.credit_date) },
    { key: 'amount', header: 'Amount', className: 'num', cell: (c) => formatMoney(c.amount, c.currency) },
    { key: 'applied', header: 'Applied', className: 'num', cell: (c) => (c.applied > 0 ? formatMoney(c.applied, c.currency) : '—') },
    { key: 'remaining', header: 'Remaining', className: 'num', cell: (c) => (c.remaining > 0 ? formatMoney(c.remaining, c.currency) : <span className="muted">Used up</span>) },
    { key: 'memo', header: 'Memo', className: 'extras-memo', cell: (c) => c.memo ?? '' },
  ];
}
