import { useState } from 'react';
import type { DataClient } from '../data-access/types.ts';
import { receiptStateText, receiptStateTone, useReceiptsWithRemote, type ReceiptDisplay } from '../lib/receipts.ts';
import { Button } from './button.tsx';
import { ReceiptLightbox } from './claim-details.tsx';
import { ReceiptThumbnail } from './receipt-thumbnail.tsx';

/**
 * The invoice: from this device when it is there (the approver entered the bill), else fetched
 * from the server and kept for offline; "Open invoice" shows it full size (an image) or offers
 * it in a new tab (a PDF). One that could not be fetched says why ("Not available offline") and
 * is asked for again later. Shown in the bill's drawer and in its approver's.
 */
export function BillInvoice({ fileId, invoiceNumber, client, version }: { fileId: string; invoiceNumber: string; client: DataClient; version: number }) {
  const files = useReceiptsWithRemote(client, [fileId], version);
  const [open, setOpen] = useState<ReceiptDisplay | null>(null);
  const name = `Invoice ${invoiceNumber}`;
  // Opened by a button that says so (a PDF's thumbnail is only an icon, no name to show on it).
  const ready = files.find((f) => !f.loading && f.state !== 'remote');
  return (
    <div className="receipt-slot" role="group" aria-label="Invoice document">
      <ul className="receipt-list">
        {files.map((f) => (
          <ReceiptThumbnail key={f.id} name={name} url={f.url} contentType={f.content_type} loading={f.loading}
            stateText={receiptStateText(f)} tone={f.state === 'remote' ? 'neutral' : receiptStateTone(f.state)} />
        ))}
      </ul>
      {ready && (
        <Button size="sm" onClick={() => setOpen({ ...ready, name })}>
          Open invoice<span className="sr-only"> {invoiceNumber}</span>
        </Button>
      )}
      {open && <ReceiptLightbox receipt={open} client={client} onClose={() => setOpen(null)} />}
    </div>
  );
}
