import { useCallback, useState, type ReactNode } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ReceiptCapture } from '../../components/receipt-capture.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { reportAdded } from '../../lib/receipts.ts';
import { takeUploadFocusRequest } from './commands.ts';
import { InboxCard } from './inbox-card.tsx';
import { isMatched } from './receipt-form.ts';
import { useInbox, type InboxItem } from './use-inbox.ts';

const routeApi = getRouteApi('/_app/receipts');

/**
 * The Receipts inbox (issue 9 §2): snap or drop receipts, type (or let OCR read) amount, date
 * and merchant, and each one is matched to the person's card transaction — attached at once
 * when exact, suggested otherwise. Attached receipts move to "Matched".
 */
export function ReceiptsPage() {
  const search = routeApi.useSearch();
  const navigate = routeApi.useNavigate();
  const client = useDataClient();
  const session = useAppState((s) => s.session);
  const dataVersion = useAppState((s) => s.dataVersion);
  const { items, reload } = useInbox(client, dataVersion);
  const [focusUpload] = useState(takeUploadFocusRequest);
  const [adding, setAdding] = useState(false);
  const currency = session?.business.currency ?? 'USD';

  const onFiles = useCallback(async (files: File[]) => {
    setAdding(true);
    try {
      reportAdded(await client.addReceipts(files.map((f) => ({ name: f.name, type: f.type, file: f }))));
    } finally {
      setAdding(false);
      reload();
    }
  }, [client, reload]);

  const tab = search.tab ?? 'inbox';
  const toMatch = items?.filter((r) => !isMatched(r)) ?? [];
  const matched = items?.filter(isMatched) ?? [];
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
          <InboxCard key={r.id} receipt={r} client={client} currency={currency} onChanged={reload} />
        ))}
      </ul>
    );

  return (
    <div className="page receipts-inbox">
      <div className="page-header">
        <h1>Receipts</h1>
      </div>
      <ReceiptCapture label="Upload receipts" onFiles={(files) => void onFiles(files)} disabled={adding} autoFocus={focusUpload} />
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
                Upload photos or PDFs of your receipts. Each one is matched to your card transaction by amount and date; add the
                amount, date and merchant if they are not read for you.
              </EmptyState>
            )),
          },
          {
            key: 'matched',
            label: items ? `Matched (${formatCount(matched.length)})` : 'Matched',
            panel: list(matched, <EmptyState title="No matched receipts yet">Receipts attached to a transaction show here.</EmptyState>),
          },
        ]}
      />
    </div>
  );
}
