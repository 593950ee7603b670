import { useCallback, useEffect, useRef, useState } from 'react';
import type { DataClient } from '../../../data-access/types.ts';
import { errorText } from '../../../lib/error-text.ts';
import { formatCount } from '../../../lib/format.ts';
import { usePdfText } from '../../../lib/pdf-text/index.ts';
import { useReceiptOcr } from '../../../lib/receipt-ocr/use-receipt-ocr.ts';
import { toastError } from '../../../lib/toast-store.ts';
import { localToday } from '../bill-form.ts';
import { parseInvoiceText } from '../invoice-text.ts';
import { readingPatch } from './inbox.ts';

/** Images and PDFs (their text layer, or their first scanned pages: lib/pdf-text) are read on this device; HEIC (Chromium cannot decode it) is not. */
export const readable = (f: File) => f.type === 'application/pdf' || (f.type.startsWith('image/') && f.type !== 'image/heic' && f.type !== 'image/heif');

/**
 * Reads the inbox's images on this device, one at a time (the OCR engine reads one image at once;
 * a second read would supersede the first), and saves what each reading adds to its provisional
 * bill, read afresh just before: a field typed meanwhile, or a row completed or removed, is left
 * alone. Stops when the page closes (what was not read yet is then typed by hand).
 */
export function useInvoiceReader(client: DataClient, currency: string) {
  const ocr = useReceiptOcr();
  const pdf = usePdfText();
  const readImage = ocr.read;
  const readPdf = pdf.read;
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
        const text = job.file.type === 'application/pdf'
          ? await readPdf(job.file).then((r) => (r?.ok ? r.reading.text : null))
          : await readImage(job.file, { defaultCurrency: currency, today }).then((r) => r?.text ?? null);
        if (text === null || !mounted.current) continue;
        const reading = parseInvoiceText(text, { defaultCurrency: currency, today });
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
  }, [client, currency, readImage, readPdf]);

  const queue = useCallback((id: string, file: File) => {
    jobs.current.push({ id, file });
    void drain();
  }, [drain]);

  const scanning = pdf.state.status === 'reading' ? pdf.state.progress : null;
  const progress = ocr.state.status === 'reading' ? ocr.state.progress : scanning?.step === 'scan' ? scanning.progress : 0;
  const status = current
    ? `Reading invoices on this device… ${Math.round(progress * 100)}%${current.left > 0 ? ` (${formatCount(current.left)} more waiting)` : ''}. Keep this page open until they are read.`
    : null;
  return { queue, current: current?.id ?? null, progress, status };
}
