import { useCallback, useEffect, useState } from 'react';
import type { AddReceiptResult, ReceiptView } from '../../workers/api.ts';
import type { DataClient } from '../data-access/types.ts';
import { toastError, toastInfo } from './toast-store.ts';

/**
 * Receipts for the UI (issue 9 §2): what the worker keeps on the device, with object URLs made
 * here from the worker's thumbnail blobs (and revoked when the list changes or unmounts), and
 * the words for each upload state.
 */
export type ReceiptItem = ReceiptView & { url: string | null };

/** What the thumbnail says about its upload (the server's reason when it was refused). */
export function receiptStateText(view: Pick<ReceiptView, 'state' | 'error'>): string {
  switch (view.state) {
    case 'local':
      return 'Waiting to upload';
    case 'uploading':
      return 'Uploading…';
    case 'uploaded':
      return 'Uploaded';
    case 'failed':
      return `Upload failed: ${view.error ?? 'the server refused the file.'}`;
    case 'remote':
      return 'Stored on the server';
  }
}

/** The tone of that state (StatusPill tones). */
export function receiptStateTone(state: ReceiptView['state']): 'neutral' | 'sync' | 'ok' | 'danger' {
  return state === 'failed' ? 'danger' : state === 'uploaded' || state === 'remote' ? 'ok' : state === 'uploading' ? 'sync' : 'neutral';
}

/** The receipts named by `ids` (client or server ids), re-read whenever `version` moves. */
export function useReceipts(client: DataClient, ids: readonly string[], version: number): ReceiptItem[] {
  const key = ids.join(',');
  // Tagged with the ids they answer: a list read for other ids is never shown for these.
  const [read, setRead] = useState<{ key: string; items: ReceiptItem[] }>({ key: '', items: [] });
  useEffect(() => {
    if (!key) return;
    let live = true;
    let urls: string[] = [];
    void client.receipts(key.split(',')).then((found) => {
      if (!live) return;
      const views = distinctReceipts(found);
      urls = views.map((v) => (v.thumbnail ? URL.createObjectURL(v.thumbnail) : ''));
      setRead({ key, items: views.map((v, i) => ({ ...v, url: urls[i] || null })) });
    });
    return () => {
      live = false;
      for (const u of urls) if (u) URL.revokeObjectURL(u);
    };
  }, [client, key, version]);
  return key && read.key === key ? read.items : NONE;
}

const NONE: ReceiptItem[] = [];

/**
 * One entry per receipt: while an attach made offline is not yet confirmed, a row can name the
 * same receipt by its client id and (from the server) by its server id.
 */
export function distinctReceipts<V extends Pick<ReceiptView, 'local_id'>>(views: readonly V[]): V[] {
  const seen = new Set<string>();
  return views.filter((v) => {
    if (v.local_id === null) return true;
    if (seen.has(v.local_id)) return false;
    seen.add(v.local_id);
    return true;
  });
}

/** Tells the user what happened to each file: refusals by name, the rest in one line. */
export function reportAdded(results: readonly AddReceiptResult[]): void {
  for (const r of results) if (!r.ok) toastError(r.error.message);
  const kept = results.filter((r) => r.ok).length;
  if (kept > 0) toastInfo(kept === 1 ? 'Receipt saved on this device. It uploads in the background.' : `${kept} receipts saved on this device. They upload in the background.`);
}

/** A transaction's receipts: read, attach files (kept locally at once, uploaded later), detach. */
export function useTransactionReceipts(client: DataClient, transaction: { id: string; receipt_ids: readonly string[] } | null, version: number) {
  const receipts = useReceipts(client, transaction?.receipt_ids ?? [], version);
  const id = transaction?.id;
  const add = useCallback(async (files: readonly File[]) => {
    if (!id || files.length === 0) return;
    const inputs = files.map((f) => ({ name: f.name, type: f.type, file: f as Blob }));
    reportAdded(await client.addReceipts(inputs, { transaction_id: id }));
  }, [client, id]);
  const detach = useCallback(async (receiptId: string) => {
    if (!id) return;
    const result = await client.run('transaction.detachReceipt', { transaction_id: id, receipt_id: receiptId });
    if (!result.ok) toastError(result.error.message);
  }, [client, id]);
  return { receipts, add, detach };
}
