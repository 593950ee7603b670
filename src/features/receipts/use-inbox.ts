import { useCallback, useEffect, useRef, useState } from 'react';
import type { InboxReceipt } from '../../../workers/api.ts';
import type { DataClient } from '../../data-access/types.ts';
import { collectionReads } from '../../lib/list/collection-reads.ts';
import { claimsByReceipt, type ClaimUse } from './receipt-form.ts';

/** An inbox receipt with an object URL of its thumbnail (made here, revoked when replaced). */
export type InboxItem = InboxReceipt & { url: string | null };

/**
 * The person's receipts on this device (the worker's `receiptInbox`), re-read whenever data
 * changes (`version`: an upload state, a transaction row, a match). One read at a time: changes
 * that arrive meanwhile (a first mirror reports many) are answered by one more read after it.
 * null until the first read.
 */
export function useInbox(client: DataClient, version: number): { items: InboxItem[] | null; reload(): void } {
  const [items, setItems] = useState<InboxItem[] | null>(null);
  const [tick, setTick] = useState(0);
  const reading = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  const urls = useRef<string[]>([]);
  const mounted = useRef(true);

  const read = useCallback(async function readInbox(): Promise<void> {
    const state = reading.current;
    if (state.busy) {
      state.again = true;
      return;
    }
    state.busy = true;
    try {
      const found = await client.receiptInbox();
      if (!mounted.current) return;
      const next = found.map((r) => (r.thumbnail ? URL.createObjectURL(r.thumbnail) : ''));
      for (const u of urls.current) if (u) URL.revokeObjectURL(u);
      urls.current = next;
      setItems(found.map((r, i) => ({ ...r, url: next[i] || null })));
    } finally {
      state.busy = false;
      if (state.again && mounted.current) {
        state.again = false;
        void readInbox();
      }
    }
  }, [client]);

  useEffect(() => void read(), [read, version, tick]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const u of urls.current) if (u) URL.revokeObjectURL(u);
      urls.current = [];
    };
  }, []);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { items, reload };
}

/**
 * The person's out-of-pocket claims' receipts (issue 25): a receipt a claim uses is matched (it
 * leaves "To match" and is never offered for another claim). Read from the mirror, claims made
 * offline included; re-read on every data change. Empty until read.
 */
export function useClaimedReceipts(client: DataClient, userId: string | null, version: number): ReadonlyMap<string, ClaimUse> {
  const [by, setBy] = useState<ReadonlyMap<string, ClaimUse>>(() => new Map());
  useEffect(() => {
    if (!userId) return;
    let live = true;
    void (async () => {
      const rows: Parameters<typeof claimsByReceipt>[0][number][] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await collectionReads(client).query('reimbursements', {
          filter: { user_ids: [userId], types: ['OUT_OF_POCKET'] }, sort: 'date_desc', offset, limit: 1000,
        });
        rows.push(...page.rows);
        if (page.rows.length < 1000 || rows.length >= page.total) break;
      }
      if (live) setBy(claimsByReceipt(rows));
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client, userId, version]);
  return by;
}
