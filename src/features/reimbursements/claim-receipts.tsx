import { useState } from 'react';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptList } from '../../components/receipt-list.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { storeReceipts, useReceiptsWithRemote } from '../../lib/receipts.ts';
import { useReceiptOcr } from '../../lib/receipt-ocr/use-receipt-ocr.ts';
import { toastInfo } from '../../lib/toast-store.ts';
import type { ReceiptReading } from './claim-form.ts';

export interface ClaimReceiptsFieldProps {
  client: DataClient;
  /** The claim's receipts (client ids while they wait to upload, server ids after). */
  ids: readonly string[];
  onChange(ids: string[]): void;
  /** Receipts stored on this device by this form (not ones already here): the dialog discards them if it is cancelled. */
  onStored?(ids: string[]): void;
  /** What the first image added reads (OCR on this device); the form fills what is still empty. */
  onReading(reading: ReceiptReading): void;
  defaultCurrency: string;
  today: string;
}

/**
 * Issue 25: gives up receipts a form stored on this device and then did not keep (the form
 * cancelled, or removed before saving). A receipt whose upload has not started is taken off the
 * device with its queued upload: the server never sees it. One uploaded (or being uploaded) is
 * discarded on the server through the outbox (`receipt.discard`: it waits for the upload and is
 * sent with the server's id; offline, on the next sync); the server keeps it if a saved claim or
 * a transaction uses the same receipt.
 */
export async function discardFormReceipts(client: DataClient, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const view of await client.receipts([...ids])) {
    if (!view.server_id && (await client.deleteLocalReceipt(view.id)).ok) continue;
    const queued = await client.run('receipt.discard', { receipt_id: view.server_id ?? view.id });
    if (!queued.ok) {
      toastInfo('A receipt could not be removed from the server; delete it from Receipts.');
      continue;
    }
    // Uploaded: the device's copy goes too (the command already names the server's id).
    if (view.server_id) await client.deleteLocalReceipt(view.id);
  }
}

/**
 * An out-of-pocket claim's receipts: capture (camera on phones, drag-and-drop, several at once),
 * kept on this device at once and uploaded by the outbox (`storeReceipts`); shown from the
 * device, or fetched from the server for an edited claim's receipts (`useReceiptsWithRemote`);
 * the first image is read on the device (tesseract.js, loaded only now) to prefill amount, date
 * and merchant, which the person checks.
 */
export function ClaimReceiptsField({ client, ids, onChange, onStored, onReading, defaultCurrency, today }: ClaimReceiptsFieldProps) {
  const dataVersion = useAppState((s) => s.dataVersion);
  const items = useReceiptsWithRemote(client, ids, dataVersion);
  const ocr = useReceiptOcr();
  // Only the first image of a form is read: a second receipt (a tip slip) must not overwrite.
  const [readOne, setReadOne] = useState(false);

  async function add(files: File[]) {
    if (files.length === 0) return;
    // Kept on this device at once and uploaded by the outbox; the claim's command waits for the uploads.
    const { ids: added, stored } = await storeReceipts(client, files);
    onStored?.(stored);
    if (added.length === 0) return;
    onChange([...ids, ...added.filter((id) => !ids.includes(id))]);
    const image = files.find((f) => f.type.startsWith('image/') && f.type !== 'image/heic');
    if (!image || readOne) return;
    setReadOne(true);
    const result = await ocr.read(image, { defaultCurrency, today });
    if (result) onReading(result.fields);
  }

  const status = ocr.state;
  return (
    <div className="claim-receipts">
      <ReceiptCapture label={ids.length > 0 ? 'Add another receipt' : 'Add receipt'} onFiles={(files) => void add(files)} />
      {status.status === 'reading' && (
        <p className="muted" role="status">
          Reading the receipt on this device… {Math.round(status.progress * 100)}%
        </p>
      )}
      {status.status === 'done' && (
        <p className="muted" role="status">
          {Object.keys(status.result.fields).length > 0
            ? 'Filled from the receipt where the form was empty: check the amount, date and merchant.'
            : 'Could not read an amount or date from this receipt: enter them by hand.'}
        </p>
      )}
      {status.status === 'failed' && (
        <p className="muted" role="status">
          This receipt could not be read on this device; enter the amount and date by hand.
        </p>
      )}
      {items.length > 0 && (
        <ReceiptList label="Receipts of this claim" items={items} onRemove={(r) => onChange(ids.filter((id) => id !== r.id && id !== r.local_id && id !== r.server_id))} />
      )}
    </div>
  );
}
