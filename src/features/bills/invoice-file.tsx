import { useEffect, useRef, useState } from 'react';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptList } from '../../components/receipt-list.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { addClaimReceipts, useReceiptsWithRemote } from '../../lib/receipts.ts';
import { useReceiptOcr } from '../../lib/receipt-ocr/use-receipt-ocr.ts';
import { parseInvoiceText, type InvoiceFields } from './invoice-text.ts';

export interface InvoiceFileFieldProps {
  client: DataClient;
  /** The attached invoice (a receipt-store id), or null. */
  id: string | null;
  onChange(id: string | null): void;
  /** What the invoice reads (OCR on this device); the form fills only what is still untouched and says what. */
  onReading(reading: InvoiceFields): void;
  /** The currency an amount without one is read in. */
  defaultCurrency: string;
  today: string;
  /** A file to attach at once (the page's "Create from invoice" drop). */
  initialFile?: File | undefined;
  disabled?: boolean;
  autoFocus?: boolean;
}

type Note = { kind: 'nothing' } | { kind: 'pdf' } | { kind: 'failed' } | null;

const readable = (f: File) => f.type.startsWith('image/') && f.type !== 'image/heic' && f.type !== 'image/heif';

/**
 * The bill's invoice document (PDF or image): kept on this device at once and uploaded by the
 * outbox (`addClaimReceipts`, the receipts' store), shown from the device or fetched from the
 * server for an edited bill. An image is read on the device (tesseract.js, loaded only now, as
 * claims do) and its fields handed to the form; PDFs are not rendered here, so not read.
 */
export function InvoiceFileField({ client, id, onChange, onReading, defaultCurrency, today, initialFile, disabled, autoFocus }: InvoiceFileFieldProps) {
  const dataVersion = useAppState((s) => s.dataVersion);
  const items = useReceiptsWithRemote(client, id ? [id] : [], dataVersion);
  const ocr = useReceiptOcr();
  const [note, setNote] = useState<Note>(null);
  const took = useRef(false);

  async function add(files: File[]) {
    const file = files[0];
    if (!file) return;
    const [added] = await addClaimReceipts(client, [file]);
    if (!added) return;
    onChange(added);
    if (!readable(file)) {
      setNote(file.type === 'application/pdf' ? { kind: 'pdf' } : null);
      return;
    }
    setNote(null);
    const result = await ocr.read(file, { defaultCurrency, today });
    if (!result) return setNote({ kind: 'failed' });
    const reading = parseInvoiceText(result.text, { defaultCurrency, today });
    onReading(reading);
    // What was filled is the form's to say (it knows what it kept); here only a reading of nothing.
    setNote(Object.keys(reading).length > 0 ? null : { kind: 'nothing' });
  }

  useEffect(() => {
    // Once per dialog (StrictMode runs effects twice in development).
    if (!initialFile || took.current) return;
    took.current = true;
    void add([initialFile]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the page's file, attached once on open
  }, [initialFile]);

  const status = ocr.state;
  return (
    <div className="bill-invoice receipt-slot" role="group" aria-label="Invoice document">
      {items.length === 0 && !disabled && (
        <ReceiptCapture label="Attach invoice" multiple={false} hint="or drop the invoice (PDF or photo) here" autoFocus={autoFocus} onFiles={(files) => void add(files)} />
      )}
      {items.length === 0 && disabled && <p className="muted">No invoice document attached.</p>}
      {items.length > 0 && (
        <ReceiptList
          label="Invoice document"
          items={items}
          {...(disabled ? {} : {
            onRemove: () => {
              ocr.reset();
              setNote(null);
              onChange(null);
            },
          })}
        />
      )}
      {status.status === 'reading' && (
        <p className="muted" role="status">
          Reading the invoice on this device… {Math.round(status.progress * 100)}%
        </p>
      )}
      {status.status !== 'reading' && note && (
        <p className="muted" role="status">
          {note.kind === 'nothing' && 'Could not read the invoice number, dates or total from this image: enter them by hand.'}
          {note.kind === 'pdf' && 'PDF invoices are kept and uploaded but not read on this device: enter the fields by hand.'}
          {note.kind === 'failed' && 'This invoice could not be read on this device; enter the fields by hand.'}
        </p>
      )}
    </div>
  );
}
