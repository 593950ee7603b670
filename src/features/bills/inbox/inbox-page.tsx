import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProvisionalBill } from '../../../../schema/entities/provisional-bill.ts';
import type { MarkedReferenceRow, ReferenceData } from '../../../../workers/api.ts';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ReceiptCapture } from '../../../components/receipt-capture.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { StatusPill } from '../../../components/status-pill.tsx';
import { SyncMark } from '../../../components/sync-mark.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatCount, formatDay, formatLocalDateTime, formatMoney, joinList } from '../../../lib/format.ts';
import { useReceiptOcr } from '../../../lib/receipt-ocr/use-receipt-ocr.ts';
import { useReceiptsWithRemote, type ReceiptDisplay } from '../../../lib/receipts.ts';
import { buildReferenceView } from '../../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../../lib/toast-store.ts';
import { BillPayNav } from '../bill-pay-nav.tsx';
import { ConfirmDialog } from '../bill-dialogs.tsx';
import { BillFormDialog } from '../bill-form-dialog.tsx';
import { localToday } from '../bill-form.ts';
import { parseInvoiceText } from '../invoice-text.ts';
import { completionPrefill, inboxOrder, missingForBill, readingPatch } from './inbox.ts';

type InboxRow = MarkedReferenceRow<ProvisionalBill>;
type Confirming = { kind: 'one'; row: InboxRow } | { kind: 'all'; ids: string[] } | null;

/** Images are read on this device; PDFs (no page render here) and HEIC (Chromium cannot decode it) are not. */
const readable = (f: File) => f.type.startsWith('image/') && f.type !== 'image/heic' && f.type !== 'image/heif';

/**
 * Issue 11 §7, the bill inbox (/bills/inbox): invoices uploaded and not yet completed into bills
 * (provisional bills, mirrored as reference data), as Ramp's and Bill.com's inboxes keep them.
 * Files picked or dropped (several at once) are kept on this device and each becomes a provisional
 * bill at once through the outbox (`provisionalBill.create`, offline too: its sync mark says so);
 * an image is then read on the device (one at a time) and what it finds is saved on the row where
 * nothing is there yet (`readingPatch`). "Complete bill" opens the bill form prefilled; saving
 * creates the bill with `provisional_bill_id`, which consumes the row in the same write.
 */
export function BillInboxPage() {
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  // Every change, not only reference data: a row's sync mark moves with the outbox.
  const dataVersion = useAppState((s) => s.dataVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const currency = session?.business.currency ?? 'USD';
  const data = useInboxData(client, dataVersion);
  const reference = useMemo(() => (data ? buildReferenceView(data) : null), [data]);
  const rows = useMemo(() => inboxOrder(data?.provisional_bills ?? []), [data]);
  const vendorNames = useMemo(() => new Map((data?.vendors ?? []).map((v) => [v.id, v.name])), [data]);
  const files = useReceiptsWithRemote(client, useMemo(() => rows.map((r) => r.invoice_file_id), [rows]), dataVersion);
  const fileOf = useMemo(() => new Map(files.map((f) => [f.id, f])), [files]);
  const reader = useInvoiceReader(client, currency);
  const [completing, setCompleting] = useState<InboxRow | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [adding, setAdding] = useState(false);
  const tableRef = useRef<HTMLTableElement>(null);

  async function addInvoices(picked: File[]) {
    setAdding(true);
    try {
      const results = await client.addReceipts(picked.map((f) => ({ name: f.name, type: f.type, file: f as Blob })));
      let added = 0;
      for (const [i, result] of results.entries()) {
        const file = picked[i]!;
        if (!result.ok) {
          toastError(`${file.name}: ${errorText(result.error)}`);
          continue;
        }
        // The same bytes twice are one file: an invoice already in the inbox is not added again.
        if (await alreadyInInbox(client, result.receipt_id)) {
          toastInfo(`${file.name} is already in the inbox.`);
          continue;
        }
        const id = crypto.randomUUID();
        const created = await client.run('provisionalBill.create', { id, invoice_file_id: result.receipt_id });
        if (!created.ok) {
          toastError(`${file.name}: ${errorText(created.error)}`);
          continue;
        }
        added++;
        if (readable(file)) reader.queue(id, file);
      }
      if (added > 0) {
        const what = added === 1 ? 'Invoice added to the inbox' : `${formatCount(added)} invoices added to the inbox`;
        const it = added === 1 ? 'It' : 'They';
        toastInfo(`${what} on this device. ${online ? `${it} sync${added === 1 ? 's' : ''} in the background.` : `${it} ${added === 1 ? 'is' : 'are'} sent when you're back online.`}`);
      }
    } finally {
      setAdding(false);
    }
  }

  async function remove(ids: string[]): Promise<boolean> {
    const result = await client.run('provisionalBill.delete', { provisional_bill_ids: ids });
    if (!result.ok) {
      toastError(errorText(result.error));
      return false;
    }
    toastInfo(ids.length === 1 ? 'Invoice removed from the inbox.' : `${formatCount(ids.length)} invoices removed from the inbox.`);
    return true;
  }

  const focusTable = useCallback(() => tableRef.current, []);
  const count = rows.length;

  return (
    <div className="bills bill-inbox">
      <BillPayNav current="/bills/inbox" />
      <div className="page-header">
        <h1>Inbox</h1>
        {data && count > 0 && (
          <span className="page-label" data-testid="inbox-count">
            {formatCount(count)} {count === 1 ? 'invoice' : 'invoices'} to complete
          </span>
        )}
        <span className="spacer" />
        {count > 0 && (
          <Button variant="ghost" onClick={() => setConfirming({ kind: 'all', ids: rows.map((r) => r.id) })}>
            Clear inbox
          </Button>
        )}
      </div>
      {!online && (
        <p className="notice notice-warn" role="note">
          You’re offline. Invoices you add are kept on this device and read here; they sync when you reconnect.
        </p>
      )}
      <div className="bill-inbox-drop">
        <ReceiptCapture
          label="Upload invoices"
          hint="or drop invoices here (PDFs or photos, several at once)"
          camera={false}
          disabled={adding}
          onFiles={(picked) => void addInvoices(picked)}
        />
      </div>
      {reader.status && (
        <p className="muted bill-inbox-reading" role="status">
          {reader.status}
        </p>
      )}
      {!data || !reference ? (
        <div className="claim-skeleton" aria-busy="true">
          <span className="sr-only">Loading the inbox…</span>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} height={40} />
          ))}
        </div>
      ) : count === 0 ? (
        <EmptyState title="Your bill inbox is empty" icon={<InboxIcon />}>
          Drop invoices here, or upload them: each one is kept on this device at once, read for its vendor, invoice number, dates and total,
          and waits here until you complete it into a bill. It works offline too.
        </EmptyState>
      ) : (
        <div className="bill-inbox-table-wrap">
          <table className="bill-inbox-table" ref={tableRef} aria-label="Invoices to complete">
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Vendor</th>
                <th scope="col">Invoice no.</th>
                <th scope="col" className="num">Total</th>
                <th scope="col">Due</th>
                <th scope="col">Uploaded</th>
                <th scope="col">Still needed</th>
                <th scope="col"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <InboxTableRow
                  key={row.id}
                  row={row}
                  file={fileOf.get(row.invoice_file_id) ?? null}
                  vendor={row.vendor_id ? (vendorNames.get(row.vendor_id) ?? null) : null}
                  uploadedBy={reference.names.user(row.created_by)}
                  reading={reader.current === row.id ? reader.progress : null}
                  onComplete={() => setCompleting(row)}
                  onDelete={() => setConfirming({ kind: 'one', row })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirming && (
        <ConfirmDialog
          title={confirming.kind === 'all' ? `Clear ${formatCount(confirming.ids.length)} ${confirming.ids.length === 1 ? 'invoice' : 'invoices'} from the inbox?` : 'Remove this invoice from the inbox?'}
          description={
            confirming.kind === 'all'
              ? 'Every invoice waiting here is removed, with what was read or typed on it. No bill is created; bills already made are not affected.'
              : `${confirming.row.invoice_number ? `Invoice ${confirming.row.invoice_number}` : 'This invoice'} is removed with what was read or typed on it. No bill is created.`
          }
          confirmLabel={confirming.kind === 'all' ? `Clear ${formatCount(confirming.ids.length)} ${confirming.ids.length === 1 ? 'invoice' : 'invoices'}` : 'Remove invoice'}
          tone="danger"
          onClose={() => setConfirming(null)}
          onConfirm={() => remove(confirming.kind === 'all' ? confirming.ids : [confirming.row.id])}
          returnFocus={focusTable}
        />
      )}
      {completing && reference && (
        <BillFormDialog
          client={client}
          reference={reference}
          currency={currency}
          prefill={completionPrefill(completing)}
          provisionalBillId={completing.id}
          onClose={() => setCompleting(null)}
          onSaved={() => setCompleting(null)}
          returnFocus={focusTable}
        />
      )}
    </div>
  );
}

interface InboxTableRowProps {
  row: InboxRow;
  file: ReceiptDisplay | null;
  vendor: string | null;
  uploadedBy: string;
  /** 0..1 while this row's invoice is being read on this device. */
  reading: number | null;
  onComplete(): void;
  onDelete(): void;
}

function InboxTableRow({ row, file, vendor, uploadedBy, reading, onComplete, onDelete }: InboxTableRowProps) {
  const missing = missingForBill(row);
  const name = file?.name ?? 'Invoice';
  const label = row.invoice_number ? `invoice ${row.invoice_number}` : name;
  const mark = { pending: row.pending ?? null, failure: row.failure ?? null };
  return (
    <tr data-testid="inbox-row">
      <td>
        <div className="bill-inbox-file">
          <InvoiceThumb file={file} />
          <span className="bill-inbox-file-name" title={name}>{name}</span>
        </div>
      </td>
      <td>{vendor ?? <span className="muted">Vendor not found</span>}</td>
      <td>{row.invoice_number ?? <span className="muted">—</span>}</td>
      <td className="num">{row.amount !== null && row.currency ? formatMoney(row.amount, row.currency) : <span className="muted">—</span>}</td>
      <td>{row.due_date ? formatDay(row.due_date) : <span className="muted">—</span>}</td>
      <td>
        <span className="bill-inbox-uploaded">
          {uploadedBy || 'Someone'}
          <span className="muted">{formatLocalDateTime(row.created_at)}</span>
        </span>
      </td>
      <td>
        <span className="bill-inbox-status">
          {reading !== null ? (
            <StatusPill tone="sync">Reading… {Math.round(reading * 100)}%</StatusPill>
          ) : missing.length === 0 ? (
            <StatusPill tone="ok">Ready to complete</StatusPill>
          ) : (
            <span>{capitalize(joinList(missing))}</span>
          )}
          <SyncMark row={mark} />
        </span>
      </td>
      <td className="bill-inbox-actions">
        <Button size="sm" variant="primary" onClick={onComplete}>
          Complete bill<span className="sr-only"> for {label}</span>
        </Button>
        <Button size="sm" variant="ghost" onClick={onDelete}>
          Remove<span className="sr-only"> {label}</span>
        </Button>
      </td>
    </tr>
  );
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

const capitalize = (s: string) => (s ? `${s[0]!.toUpperCase()}${s.slice(1)}` : s);

/** Reference data as shown (commands applied, with marks), re-read with `version`; null until the first answer. */
function useInboxData(client: DataClient, version: number): ReferenceData | null {
  const [data, setData] = useState<ReferenceData | null>(null);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => {
      if (live) setData(d);
    });
    return () => {
      live = false;
    };
  }, [client, version]);
  return data;
}

/** Whether a provisional bill shown already holds this file (by this device's id or the server's). */
async function alreadyInInbox(client: DataClient, fileId: string): Promise<boolean> {
  const [{ provisional_bills: rows }, [view]] = await Promise.all([client.referenceData(), client.receipts([fileId])]);
  const ids = new Set([fileId, view?.local_id, view?.server_id].filter((x): x is string => Boolean(x)));
  return rows.some((r) => ids.has(r.invoice_file_id));
}

/**
 * Reads the inbox's images on this device, one at a time (the OCR engine reads one image at once;
 * a second read would supersede the first), and saves what each reading adds to its provisional
 * bill, read afresh just before: a field typed meanwhile, or a row completed or removed, is left
 * alone. Stops when the page closes (what was not read yet is then typed by hand).
 */
function useInvoiceReader(client: DataClient, currency: string) {
  const ocr = useReceiptOcr();
  const read = ocr.read;
  const jobs = useRef<{ id: string; file: File }[]>([]);
  const running = useRef(false);
  const mounted = useRef(true);
  const [current, setCurrent] = useState<{ id: string; left: number } | null>(null);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const drain = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    try {
      for (let job = jobs.current.shift(); job && mounted.current; job = jobs.current.shift()) {
        setCurrent({ id: job.id, left: jobs.current.length });
        const today = localToday();
        const result = await read(job.file, { defaultCurrency: currency, today });
        if (!result || !mounted.current) continue;
        const reading = parseInvoiceText(result.text, { defaultCurrency: currency, today });
        const data = await client.referenceData();
        const row = data.provisional_bills.find((r) => r.id === job.id);
        const patch = row ? readingPatch(row, reading, data.vendors) : null;
        if (!patch) continue;
        const saved = await client.run('provisionalBill.update', { provisional_bill_id: job.id, patch });
        if (!saved.ok) toastError(`What was read from ${job.file.name} could not be saved: ${errorText(saved.error)}`);
      }
    } finally {
      running.current = false;
      if (mounted.current) setCurrent(null);
    }
  }, [client, currency, read]);

  const queue = useCallback((id: string, file: File) => {
    jobs.current.push({ id, file });
    void drain();
  }, [drain]);

  const progress = ocr.state.status === 'reading' ? ocr.state.progress : 0;
  const status = current
    ? `Reading invoices on this device… ${Math.round(progress * 100)}%${current.left > 0 ? ` (${formatCount(current.left)} more waiting)` : ''}. Keep this page open until they are read.`
    : null;
  return { queue, current: current?.id ?? null, progress, status };
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
