import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
      // Not on this device: `error` says why it could not be fetched ("Not available offline").
      return view.error ?? 'Stored on the server';
  }
}

/** The tone of that state (StatusPill tones). */
export function receiptStateTone(state: ReceiptView['state']): 'neutral' | 'sync' | 'ok' | 'danger' {
  return state === 'failed' ? 'danger' : state === 'uploaded' || state === 'remote' ? 'ok' : state === 'uploading' ? 'sync' : 'neutral';
}

/** A receipt to show: `loading` while its file is being fetched from the server. */
export type ReceiptDisplay = ReceiptItem & { loading: boolean };

type Fetched = { status: 'loading' } | { status: 'done'; view: ReceiptView; url: string | null };

/**
 * The receipts named by `ids`, fetching the ones stored only on the server (attached on another
 * device: a claim the manager reviews, a new device) through the worker, which keeps them for
 * offline. Each such receipt is asked for once per mount; one it could not fetch says why
 * ("Not available offline") and is asked for again when `version` moves.
 */
export function useReceiptsWithRemote(client: DataClient, ids: readonly string[], version: number): ReceiptDisplay[] {
  const items = useReceipts(client, ids, version);
  const [fetched, setFetched] = useState<Record<string, Fetched>>({});
  const urls = useRef<string[]>([]);
  const mounted = useRef(true);
  const asked = useRef(new Set<string>());
  const failed = useRef(new Set<string>());
  useEffect(() => {
    // A later version may find it online again: failed fetches are asked for anew.
    for (const id of failed.current) asked.current.delete(id);
    failed.current.clear();
  }, [version]);
  useEffect(() => {
    for (const item of items) {
      if (item.state !== 'remote' || asked.current.has(item.id)) continue;
      asked.current.add(item.id);
      setFetched((f) => ({ ...f, [item.id]: { status: 'loading' } }));
      void client.fetchReceipt(item.id).then((view) => {
        if (!mounted.current) return;
        const url = view.thumbnail ? URL.createObjectURL(view.thumbnail) : null;
        if (url) urls.current.push(url);
        if (view.state === 'remote') failed.current.add(item.id);
        setFetched((f) => ({ ...f, [item.id]: { status: 'done', view, url } }));
      });
    }
  }, [client, items]);
  useEffect(() => {
    mounted.current = true;
    const made = urls.current;
    return () => {
      mounted.current = false;
      for (const u of made.splice(0)) URL.revokeObjectURL(u);
    };
  }, []);
  return useMemo(() => items.map((item): ReceiptDisplay => {
    if (item.state !== 'remote') return { ...item, loading: false };
    const f = fetched[item.id];
    if (!f || f.status === 'loading') return { ...item, loading: true };
    return { ...f.view, url: f.url, loading: false };
  }), [items, fetched]);
}

/**
 * Keeps files on the device for a claim being written (checked, uploaded later by the outbox) and
 * answers their client ids in order; refusals are toasted by name. Give the ids to the
 * create/update/saveDraft command as `receipt_ids`: it waits for the uploads and is sent with the
 * server's ids.
 */
export async function addClaimReceipts(client: DataClient, files: readonly File[]): Promise<string[]> {
  return (await storeReceipts(client, files)).ids;
}

/**
 * `addClaimReceipts`, also saying which of the ids this call stored itself (`stored`; the others
 * were already on the device): a form that is cancelled discards only those.
 */
export async function storeReceipts(client: DataClient, files: readonly File[]): Promise<{ ids: string[]; stored: string[] }> {
  if (files.length === 0) return { ids: [], stored: [] };
  const results = await client.addReceipts(files.map((f) => ({ name: f.name, type: f.type, file: f as Blob })));
  reportAdded(results);
  return {
    ids: results.flatMap((r) => (r.ok ? [r.receipt_id] : [])),
    stored: results.flatMap((r) => (r.ok && r.added ? [r.receipt_id] : [])),
  };
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
