import { useRef, useState } from 'react';
import type { ItemReceipt, PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import { RECEIPT_CONTENT_TYPES } from '../../../schema/api/calls-receipts.ts';
import { Button } from '../../components/button.tsx';
import { DeleteDialog } from '../../components/confirm-dialog.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { errorText } from '../../lib/error-text.ts';
import { formatLocalDateTime } from '../../lib/format.ts';
import { saveFile } from '../../lib/save-file.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { receiptLinesText, receiptsNewestFirst } from './po-view.ts';

export interface PoReceiptsProps {
  po: PurchaseOrder;
  client: DataClient;
  online: boolean;
  /** A receipt made on this device waits to sync: the server does not have it yet. */
  waiting: boolean;
  userName(id: string): string;
}

/**
 * The receipts history, newest first: who recorded what and when, the packing slips (download,
 * attach while online) and Delete (bill managers and the requester; the server checks; online,
 * confirmed first: the PO's received quantities and status follow).
 */
export function PoReceipts({ po, client, online, waiting, userName }: PoReceiptsProps) {
  const [deleting, setDeleting] = useState<ItemReceipt | null>(null);
  const receipts = receiptsNewestFirst(po.receipts);
  const why = !online ? 'You’re offline: attaching and deleting need a connection.'
    : waiting ? 'A receipt made on this device is waiting to sync: attaching and deleting wait until the server has it.' : null;
  return (
    <section className="po-section" aria-labelledby="po-receipts">
      <h2 id="po-receipts">Receipts</h2>
      {receipts.length === 0 && <p className="muted">Nothing received yet.</p>}
      {why && receipts.length > 0 && <p className="muted">{why}</p>}
      {receipts.length > 0 && (
        <ul className="po-receipts">
          {receipts.map((r) => (
            <li key={r.id} className="po-receipt">
              <div className="po-receipt-head">
                <strong>{receiptLinesText(po, r)}</strong>
                <span className="muted">
                  Received <time dateTime={r.received_at}>{formatLocalDateTime(r.received_at)}</time> · recorded by {userName(r.received_by) || 'someone not on this device'}
                </span>
              </div>
              <ReceiptDocuments receipt={r} client={client} disabled={why !== null} />
              <Button size="sm" variant="ghost" className="po-receipt-delete" disabled={why !== null} onClick={() => setDeleting(r)}>
                Delete <span className="sr-only">receipt of {formatLocalDateTime(r.received_at)}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <DeleteDialog
          title="Delete this receipt?"
          description={`${receiptLinesText(po, deleting)} will no longer count as received on ${po.po_number}; its status and any bill matched against it are checked again.`}
          confirmLabel="Delete receipt"
          onClose={() => setDeleting(null)}
          onDelete={async () => {
            const r = await client.deleteItemReceipt(deleting.id);
            if (!r.ok) return r.error;
            toastInfo('Receipt deleted.');
            return null;
          }}
        />
      )}
    </section>
  );
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': '.pdf', 'image/jpeg': '.jpg', 'image/png': '.png', 'image/heic': '.heic', 'image/webp': '.webp' };

/** A receipt's documents (packing slips): each downloads; "Attach packing slip" uploads one (online). */
function ReceiptDocuments({ receipt, client, disabled }: { receipt: ItemReceipt; client: DataClient; disabled: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  async function download(docId: string, n: number) {
    const r = await client.itemReceiptDocument(receipt.id, docId);
    if (!r.ok) return toastError(errorText(r.error));
    saveFile(r.file, `packing-slip-${n}${EXTENSIONS[r.file.type] ?? ''}`);
  }
  async function attach(file: File) {
    setBusy(true);
    try {
      const r = await client.uploadItemReceiptDocument(receipt.id, file);
      if (!r.ok) return toastError(errorText(r.error));
      toastInfo(`${file.name} attached to the receipt.`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="po-receipt-docs">
      {receipt.document_ids.map((id, i) => (
        <Button key={id} size="sm" variant="ghost" onClick={() => void download(id, i + 1)}>
          Packing slip {i + 1}<span className="sr-only"> (download)</span>
        </Button>
      ))}
      <input
        ref={input}
        type="file"
        hidden
        accept={RECEIPT_CONTENT_TYPES.join(',')}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void attach(file);
        }}
      />
      <Button size="sm" disabled={disabled} loading={busy} onClick={() => input.current?.click()}>
        Attach packing slip
      </Button>
    </div>
  );
}
