import { useCallback, useState, type ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { usePageData } from '../../lib/use-page-data.ts';
import { formatCount } from '../../lib/format.ts';
import { reportAdded } from '../../lib/receipts.ts';
import { useReceiptOcr } from '../../lib/receipt-ocr/index.ts';
import { toastError, toastInfo } from '../../lib/toast-store.ts';
import { takeUploadFocusRequest } from './commands.ts';
import { InboxCard, localToday } from './inbox-card.tsx';
import { claimOf, isMatched, ocrFields } from './receipt-form.ts';
import { useClaimedReceipts, useInbox, type InboxItem } from './use-inbox.ts';

const routeApi = getRouteApi('/_app/receipts');

/**
 * The Receipts inbox (issue 9 §2): snap or drop receipts, type (or let OCR read) amount, date
 * and merchant, and each one is matched to the person's card transaction — attached at once
 * when exact, suggested otherwise. Attached receipts move to "Matched".
 */
export function ReceiptsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const { client, session, currency, dataVersion } = usePageData();
  const { items, reload } = useInbox(client, dataVersion);
  const claims = useClaimedReceipts(client, session?.user.id ?? null, dataVersion);
  const [focusUpload] = useState(takeUploadFocusRequest);
  const [adding, setAdding] = useState(false);
  // Which of the added images OCR is reading ("2 of 3"), while it reads.
  const [reading, setReading] = useState<{ n: number; of: number } | null>(null);
  const ocr = useReceiptOcr();

  const onFiles = useCallback(async (files: File[]) => {
    setAdding(true);
    const toRead: { id: string; file: File }[] = [];
    try {
      const results = await client.addReceipts(files.map((f) => ({ name: f.name, type: f.type, file: f })));
      reportAdded(results);
      results.forEach((r, i) => {
        const file = files[i]!;
        // The claim form's OCR, on this device (offline too): images only (not HEIC, which the engine cannot decode).
        if (r.ok && file.type.startsWith('image/') && file.type !== 'image/heic') toRead.push({ id: r.receipt_id, file });
      });
    } finally {
      setAdding(false);
      reload();
    }
    // Issue 25: each new image is read for amount, date and merchant, then matched like typed fields.
    for (const [i, { id, file }] of toRead.entries()) {
      setReading({ n: i + 1, of: toRead.length });
      const result = await ocr.read(file, { defaultCurrency: currency, today: localToday() });
      const fields = result ? ocrFields(result.fields) : null;
      if (!fields) continue;
      const saved = await client.setReceiptFields(id, fields);
      if (!saved.ok) toastError(saved.error.message);
      else if (saved.receipt.attached_to && saved.receipt.match?.auto) toastInfo(`Read ${file.name} and attached it to ${saved.receipt.attached_to.merchant_name}.`);
      reload();
    }
    setReading(null);
  }, [client, reload, ocr, currency]);

  const tab = search.tab ?? 'inbox';
  const toMatch = items?.filter((r) => !isMatched(r, claimOf(r, claims))) ?? [];
  const matched = items?.filter((r) => isMatched(r, claimOf(r, claims))) ?? [];
  const list = (rows: InboxItem[], empty: ReactNode) =>
    items === null ? (
      <div aria-busy="true">
        <span className="sr-only">Loading receipts…</span>
        <Skeleton />
      </div>
    ) : rows.length === 0 ? (
      empty
    ) : (
      <ul className="inbox-list">
        {rows.map((r) => (
          <InboxCard key={r.id} receipt={r} claim={claimOf(r, claims)} client={client} currency={currency} onChanged={reload} />
        ))}
      </ul>
    );

  return (
    <div className="page receipts-inbox">
      <div className="page-header">
        <h1>Receipts</h1>
      </div>
      <ReceiptCapture label="Upload receipts" onFiles={(files) => void onFiles(files)} disabled={adding} autoFocus={focusUpload} />
      {reading && (
        <p className="muted" role="status" data-testid="receipt-ocr-status">
          Reading {reading.of > 1 ? `receipt ${reading.n} of ${reading.of}` : 'the receipt'} on this device…
          {ocr.state.status === 'reading' ? ` ${Math.round(ocr.state.progress * 100)}%` : ''}
        </p>
      )}
      <Tabs
        label="Receipts"
        selected={tab}
        onSelect={(key) => void navigate({ search: key === 'matched' ? { tab: 'matched' } : {}, replace: true })}
        tabs={[
          {
            key: 'inbox',
            label: items ? `To match (${formatCount(toMatch.length)})` : 'To match',
            panel: list(toMatch, (
              <EmptyState title="No receipts to match">
                Upload photos or PDFs of your receipts. Photos are read on this device for the amount, date and merchant (check
                them), and each receipt is matched to your card transaction by amount and date.
              </EmptyState>
            )),
          },
          {
            key: 'matched',
            label: items ? `Matched (${formatCount(matched.length)})` : 'Matched',
            panel: list(matched, <EmptyState title="No matched receipts yet">Receipts attached to a transaction or used in a claim show here.</EmptyState>),
          },
        ]}
      />
    </div>
  );
}
