import { useMemo, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { ReceiptCapture } from '../../../components/receipt-capture.tsx';
import { useAppState, useDataClient } from '../../../data-access/data-context.tsx';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatCount } from '../../../lib/format.ts';
import { ListPage } from '../../../lib/list/list-page.tsx';
import { useListPage, useLocalRows } from '../../../lib/list/use-list-page.ts';
import { useReceiptsWithRemote } from '../../../lib/receipts.ts';
import { buildReferenceView, useReferenceAnswer } from '../../../lib/reference-data.ts';
import { toastError, toastInfo } from '../../../lib/toast-store.ts';
import { BillPayNav } from '../bill-pay-nav.tsx';
import { ConfirmDialog } from '../bill-dialogs.tsx';
import { BillFormDialog } from '../bill-form-dialog.tsx';
import { completionPrefill, inboxOrder } from './inbox.ts';
import { inboxSpec, type InboxRow } from './inbox-list.tsx';
import { readable, useInvoiceReader } from './use-invoice-reader.ts';

type Confirming = { kind: 'one'; row: InboxRow } | { kind: 'all'; ids: string[] } | null;

/**
 * Files picked or dropped (several at once) are kept on this device and each becomes a
 * provisional bill at once through the outbox (`provisionalBill.create`, offline too); an image
 * is then queued to be read on the device. Removing deletes provisional bills (confirmed first).
 */
function useInboxChanges(client: DataClient, online: boolean, queueReading: (id: string, file: File) => void) {
  const [adding, setAdding] = useState(false);

  async function addOne(file: File, result: Awaited<ReturnType<DataClient['addReceipts']>>[number]): Promise<boolean> {
    if (!result.ok) {
      toastError(`${file.name}: ${errorText(result.error)}`);
      return false;
    }
    // The same bytes twice are one file: an invoice already in the inbox is not added again.
    if (await alreadyInInbox(client, result.receipt_id)) {
      toastInfo(`${file.name} is already in the inbox.`);
      return false;
    }
    const id = crypto.randomUUID();
    const created = await client.run('provisionalBill.create', { id, invoice_file_id: result.receipt_id });
    if (!created.ok) {
      toastError(`${file.name}: ${errorText(created.error)}`);
      return false;
    }
    if (readable(file)) queueReading(id, file);
    return true;
  }

  async function addInvoices(picked: File[]) {
    setAdding(true);
    try {
      const results = await client.addReceipts(picked.map((f) => ({ name: f.name, type: f.type, file: f as Blob })));
      let added = 0;
      for (const [i, result] of results.entries()) if (await addOne(picked[i]!, result)) added++;
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

  return { adding, addInvoices, remove };
}

/**
 * Issue 11 §7, the bill inbox (/bills/inbox): invoices uploaded and not yet completed into bills
 * (provisional bills, mirrored as reference data), as Ramp's and Bill.com's inboxes keep them,
 * listed on the declarative list page (inbox-list.tsx). Each uploaded image is read on the
 * device (one at a time) and what it finds is saved on the row where nothing is there yet
 * (`readingPatch`). "Complete bill" opens the bill form prefilled; saving creates the bill with
 * `provisional_bill_id`, which consumes the row in the same write.
 */
export function BillInboxPage() {
  const client = useDataClient();
  const currency = useAppState((s) => s.session?.business.currency ?? 'USD');
  // Every change, not only reference data: a row's sync mark moves with the outbox.
  const dataVersion = useAppState((s) => s.dataVersion);
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const data = useReferenceAnswer(client, dataVersion);
  const reference = useMemo(() => (data ? buildReferenceView(data) : null), [data]);
  const shown = useMemo(() => (data ? inboxOrder(data.provisional_bills) : null), [data]);
  const vendorNames = useMemo(() => new Map((data?.vendors ?? []).map((v) => [v.id, v.name])), [data]);
  const files = useReceiptsWithRemote(client, useMemo(() => (shown ?? []).map((r) => r.invoice_file_id), [shown]), dataVersion);
  const fileOf = useMemo(() => new Map(files.map((f) => [f.id, f])), [files]);
  const reader = useInvoiceReader(client, currency);
  const { adding, addInvoices, remove } = useInboxChanges(client, online, reader.queue);
  const [completing, setCompleting] = useState<InboxRow | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const dialogOpen = completing !== null || confirming !== null;
  const rows = useLocalRows('inbox', shown, 'The inbox');
  const list = useListPage({ key: 'inbox', rows, dialogOpen });
  const count = shown?.length ?? 0;
  const spec = inboxSpec({
    fileOf: (row) => fileOf.get(row.invoice_file_id) ?? null,
    vendorName: (row) => (row.vendor_id ? (vendorNames.get(row.vendor_id) ?? null) : null),
    uploadedBy: (row) => reference?.names.user(row.created_by) ?? '',
    reading: (row) => (reader.current === row.id ? reader.progress : null),
    onComplete: setCompleting,
    onDelete: (row) => setConfirming({ kind: 'one', row }),
  });

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
          <Button variant="ghost" onClick={() => setConfirming({ kind: 'all', ids: (shown ?? []).map((r) => r.id) })}>
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
        <ReceiptCapture label="Upload invoices" hint="or drop invoices here (PDFs or photos, several at once)" camera={false} disabled={adding}
          onFiles={(picked) => void addInvoices(picked)} />
      </div>
      {reader.status && (
        <p className="muted bill-inbox-reading" role="status">
          {reader.status}
        </p>
      )}
      <ListPage spec={spec} list={list} loading={!data || !reference} filtered={false} quiet={dialogOpen} />
      {confirming && <InboxConfirm confirming={confirming} onClose={() => setConfirming(null)} onRemove={remove} returnFocus={list.gridElement} />}
      {completing && reference && (
        <BillFormDialog client={client} reference={reference} currency={currency} prefill={completionPrefill(completing)} provisionalBillId={completing.id}
          onClose={() => setCompleting(null)} onSaved={() => setCompleting(null)} returnFocus={list.gridElement} />
      )}
    </div>
  );
}

/** Removing one invoice, or clearing the inbox: confirmed, naming what goes. */
function InboxConfirm({ confirming, onClose, onRemove, returnFocus }: {
  confirming: NonNullable<Confirming>; onClose(): void; onRemove(ids: string[]): Promise<boolean>; returnFocus(): HTMLElement | null | undefined;
}) {
  const all = confirming.kind === 'all';
  const n = all ? confirming.ids.length : 1;
  const what = `${formatCount(n)} ${n === 1 ? 'invoice' : 'invoices'}`;
  return (
    <ConfirmDialog
      title={all ? `Clear ${what} from the inbox?` : 'Remove this invoice from the inbox?'}
      description={all
        ? 'Every invoice waiting here is removed, with what was read or typed on it. No bill is created; bills already made are not affected.'
        : `${confirming.row.invoice_number ? `Invoice ${confirming.row.invoice_number}` : 'This invoice'} is removed with what was read or typed on it. No bill is created.`}
      confirmLabel={all ? `Clear ${what}` : 'Remove invoice'}
      tone="danger"
      onClose={onClose}
      onConfirm={() => onRemove(all ? confirming.ids : [confirming.row.id])}
      returnFocus={returnFocus}
    />
  );
}

/** Whether a provisional bill shown already holds this file (by this device's id or the server's). */
async function alreadyInInbox(client: DataClient, fileId: string): Promise<boolean> {
  const [{ provisional_bills: rows }, [view]] = await Promise.all([client.referenceData(), client.receipts([fileId])]);
  const ids = new Set([fileId, view?.local_id, view?.server_id].filter((x): x is string => Boolean(x)));
  return rows.some((r) => ids.has(r.invoice_file_id));
}
