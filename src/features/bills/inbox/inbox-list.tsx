import type { ProvisionalBill } from '../../../../schema/entities/provisional-bill.ts';
import type { MarkedReferenceRow } from '../../../../workers/api.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { SyncMark } from '../../../components/sync-mark.tsx';
import { formatDay, formatLocalDateTime, formatMoney, joinList } from '../../../lib/format.ts';
import { listKeyHint } from '../../../lib/list/key-hint.ts';
import type { ListColumn, ListSpec } from '../../../lib/list/list-spec.ts';
import type { ReceiptDisplay } from '../../../lib/receipts.ts';
import { missingForBill } from './inbox.ts';

export type InboxRow = MarkedReferenceRow<ProvisionalBill>;

/** A row holds the invoice's thumbnail (48 px) and two-line cells. */
const ROW_HEIGHT = 64;
/** On a phone a row is a card of five lines (inbox.css `.grid-cards .inbox-row`). */
const CARD_HEIGHT = 196;
/** The rows open nothing (their buttons act) and are not selected: moving, '/' and the global keys. */
const KEY_HINT = listKeyHint({ open: false, search: false });

export interface InboxSpecOptions {
  fileOf(row: InboxRow): ReceiptDisplay | null;
  vendorName(row: InboxRow): string | null;
  uploadedBy(row: InboxRow): string;
  /** 0..1 while this row's invoice is being read on this device. */
  reading(row: InboxRow): number | null;
  onComplete(row: InboxRow): void;
  onDelete(row: InboxRow): void;
}

const dash = <span className="muted">—</span>;
const capitalize = (s: string) => (s ? `${s[0]!.toUpperCase()}${s.slice(1)}` : s);
/** What the row's buttons name: its invoice number, else its file. */
const rowName = (row: InboxRow, file: ReceiptDisplay | null) => (row.invoice_number ? `invoice ${row.invoice_number}` : (file?.name ?? 'Invoice'));

/** The inbox's columns: the file, vendor, invoice number, total, due date, who uploaded it when, what is still needed. */
function inboxColumns(o: InboxSpecOptions): ListColumn<InboxRow>[] {
  return [
    {
      key: 'file', header: 'Invoice', className: 'cell-file',
      cell: (row) => {
        const file = o.fileOf(row);
        const name = file?.name ?? 'Invoice';
        return (
          <span className="bill-inbox-file">
            <InvoiceThumb file={file} />
            <span className="bill-inbox-file-name" title={name}>{name}</span>
          </span>
        );
      },
    },
    { key: 'vendor', header: 'Vendor', className: 'cell-vendor', cell: (row) => o.vendorName(row) ?? <span className="muted">Vendor not found</span> },
    { key: 'number', header: 'Invoice no.', className: 'cell-number', cell: (row) => row.invoice_number ?? dash },
    { key: 'total', header: 'Total', className: 'cell-total num', cell: (row) => (row.amount !== null && row.currency ? formatMoney(row.amount, row.currency) : dash) },
    { key: 'due', header: 'Due', className: 'cell-due', cell: (row) => (row.due_date ? formatDay(row.due_date) : dash) },
    {
      key: 'uploaded', header: 'Uploaded', className: 'cell-uploaded',
      cell: (row) => (
        <span className="bill-inbox-uploaded">
          {o.uploadedBy(row) || 'Someone'}
          <span className="muted">{formatLocalDateTime(row.created_at)}</span>
        </span>
      ),
    },
    { key: 'needed', header: 'Still needed', className: 'cell-needed', cell: (row) => <InboxStatus row={row} reading={o.reading(row)} /> },
  ];
}

function InboxStatus({ row, reading }: { row: InboxRow; reading: number | null }) {
  const missing = missingForBill(row);
  return (
    <span className="bill-inbox-status">
      {reading !== null ? (
        <StatusPill tone="sync">Reading… {Math.round(reading * 100)}%</StatusPill>
      ) : missing.length === 0 ? (
        <StatusPill tone="ok">Ready to complete</StatusPill>
      ) : (
        <span>{capitalize(joinList(missing))}</span>
      )}
      <SyncMark row={{ pending: row.pending ?? null, failure: row.failure ?? null }} />
    </span>
  );
}

/**
 * The bill inbox's list, declared (issue 26): the provisional bills newest first, each with
 * "Complete bill" and "Remove" in its last cell; the blank state says what the inbox is for.
 */
export function inboxSpec(o: InboxSpecOptions): ListSpec<InboxRow> {
  return {
    label: 'Invoices to complete',
    rowIdPrefix: 'inbox-row',
    rowClassName: 'inbox-row',
    gridClassName: 'grid-inbox',
    rowHeight: ROW_HEIGHT,
    phone: { className: 'grid-cards', rowHeight: CARD_HEIGHT },
    columns: inboxColumns(o),
    rowActions: (row) => {
      const label = rowName(row, o.fileOf(row));
      return (
        <>
          <Button size="sm" variant="primary" onClick={() => o.onComplete(row)}>
            Complete bill<span className="sr-only"> for {label}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => o.onDelete(row)}>
            Remove<span className="sr-only"> {label}</span>
          </Button>
        </>
      );
    },
    pending: (row) => row.pending,
    emptyText: 'Your bill inbox is empty',
    blank: (
      <EmptyState title="Your bill inbox is empty" icon={<InboxIcon />}>
        Drop invoices here, or upload them: each one is kept on this device at once, read for its vendor, invoice number, dates and total,
        and waits here until you complete it into a bill. It works offline too.
      </EmptyState>
    ),
    waitingText: 'Opening the inbox…',
    loadingWhat: 'the inbox',
    keyHint: KEY_HINT,
  };
}

function InvoiceThumb({ file }: { file: ReceiptDisplay | null }) {
  if (!file || file.loading) return <span className="bill-inbox-thumb" aria-hidden="true"><Skeleton width="100%" height="100%" /></span>;
  if (file.url) return <img className="bill-inbox-thumb" src={file.url} alt={file.name} />;
  const pdf = file.content_type === 'application/pdf';
  return (
    <span className="bill-inbox-thumb bill-inbox-thumb-icon" role="img" aria-label={pdf ? `PDF ${file.name}` : file.name}>
      {pdf ? 'PDF' : '🧾'}
    </span>
  );
}

/** An in-tray, drawn (an emoji depends on the system's fonts). */
function InboxIcon() {
  return (
    <svg width="32" height="32" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M4 13l2.2-7.1A1.5 1.5 0 0 1 7.6 5h8.8a1.5 1.5 0 0 1 1.4.9L20 13" />
      <path d="M4 13v5.5A1.5 1.5 0 0 0 5.5 20h13a1.5 1.5 0 0 0 1.5-1.5V13h-4.5l-1.5 2.5h-4L8.5 13z" />
    </svg>
  );
}
