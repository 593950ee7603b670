import { useEffect, useRef, useState } from 'react';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { ReceiptList } from '../../components/receipt-list.tsx';
import { useAppState } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { pdfProgressText, usePdfText } from '../../lib/pdf-text/index.ts';
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

type Note = { kind: 'nothing'; what: 'image' | 'PDF' } | { kind: 'failed' } | { kind: 'pdf'; text: string } | null;

const readable = (f: File) => f.type.startsWith('image/') && f.type !== 'image/heic' && f.type !== 'image/heif';

/**
 * The bill's invoice document (PDF or image): kept on this device at once and uploaded by the
 * outbox (`addClaimReceipts`, the receipts' store), shown from the device or fetched from the
 * server for an edited bill. An image is read on the device (tesseract.js, loaded only now, as
 * claims do), a PDF too (lib/pdf-text: its text layer, or its first scanned pages by the same
 * OCR), and the fields read are handed to the form.
 */
export function InvoiceFileField({ client, id, onChange, onReading, defaultCurrency, today, initialFile, disabled, autoFocus }: InvoiceFileFieldProps) {
  const dataVersion = useAppState((s) => s.dataVersion);
  const items = useReceiptsWithRemote(client, id ? [id] : [], dataVersion);
  const ocr = useReceiptOcr();
  const pdf = usePdfText();
  const [note, setNote] = useState<Note>(null);
  const took = useRef(false);

  async function add(files: File[]) {
    const file = files[0];
    if (!file) return;
    const [added] = await addClaimReceipts(client, [file]);
    if (!added) return;
    onChange(added);
    setNote(null);
    if (file.type === 'application/pdf') return readText(file, 'PDF');
    if (!readable(file)) return;
    await readText(file, 'image');
  }

  async function readText(file: File, what: 'image' | 'PDF') {
    let text: string;
    if (what === 'PDF') {
      // Over the upload limit the file was refused before it got here (addClaimReceipts).
      const outcome = await pdf.read(file);
      if (!outcome) return;
      if (!outcome.ok) return setNote({ kind: 'pdf', text: `${outcome.message} Enter the fields by hand.` });
      text = outcome.reading.text;
      if (outcome.limits) setNote({ kind: 'pdf', text: outcome.limits });
    } else {
      const result = await ocr.read(file, { defaultCurrency, today });
      if (!result) return setNote({ kind: 'failed' });
      text = result.text;
    }
    const reading = parseInvoiceText(text, { defaultCurrency, today });
    onReading(reading);
    // What was filled is the form's to say (it knows what it kept); here only a reading of nothing.
    if (Object.keys(reading).length === 0) setNote({ kind: 'nothing', what });
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
              pdf.reset();
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
      {pdf.state.status === 'reading' && <p className="muted" role="status">{pdfProgressText(pdf.state.progress)}</p>}
      {status.status !== 'reading' && pdf.state.status !== 'reading' && note && (
        <p className="muted" role="status">
          {note.kind === 'nothing' && `Could not read the invoice number, dates or total from this ${note.what}: enter them by hand.`}
          {note.kind === 'pdf' && note.text}
          {note.kind === 'failed' && 'This invoice could not be read on this device; enter the fields by hand.'}
        </p>
      )}
    </div>
  );
}
