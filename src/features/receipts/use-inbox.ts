import { useCallback, useEffect, useState } from 'react';
import type { InboxReceipt } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';

/** An inbox receipt with an object URL of its thumbnail (made here, revoked on the next read). */
export type InboxItem = InboxReceipt & { url: string | null };

/**
 * The person's receipts on this device (the worker's `receiptInbox`), re-read whenever data
 * changes (`version`: an upload state, a transaction row, a match). null until the first read.
 */
export function useInbox(client: DataClient, version: number): { items: InboxItem[] | null; reload(): void } {
  const [items, setItems] = useState<InboxItem[] | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    let urls: string[] = [];
    void client.receiptInbox().then((found) => {
      if (!live) return;
      urls = found.map((r) => (r.thumbnail ? URL.createObjectURL(r.thumbnail) : ''));
      setItems(found.map((r, i) => ({ ...r, url: urls[i] || null })));
    });
    return () => {
      live = false;
      for (const u of urls) if (u) URL.revokeObjectURL(u);
    };
  }, [client, version, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { items, reload };
}
