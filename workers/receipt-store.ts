import { Dexie, type DexieOptions, type Table } from 'dexie';
import type { ReceiptContentType } from '../schema/api/calls-receipts.ts';
import type { MatchCandidate, ReceiptExtracted } from '../schema/receipt-matching.ts';
import type { LocalFilesPort, UploadState } from '../sync/index.ts';

/**
 * Receipt files on the device (issue 9 §2), in a small Dexie database of their own beside the
 * mirror (`<mirror db name>-receipts`), NOT an RxDB collection: the free RxDB build opens 13
 * collections in all and that budget is for mirrored collections; files are not mirrored rows
 * (no feed, no query engine, blobs RxDB would base64 in its change events). Each receipt is
 * keyed by its client id, a uuid made on the device, so commands can name it before the upload.
 *
 * It is the outbox's `LocalFilesPort`: the upload command reads the bytes from here when it is
 * sent (the outbox keeps no copy), records the upload state, and the server's id once the
 * upload answered one (the server stores by content, so it may name an earlier receipt).
 */
export interface StoredReceipt {
  /** The client id. */
  id: string;
  name: string;
  content_type: ReceiptContentType;
  size: number;
  sha256: string;
  created_at: string;
  upload: UploadState;
  /** The server's id once uploaded (indexed: the feed's `receipt_ids` name it). */
  server_id: string | null;
  file: Blob;
  /** ≤ 320 px WebP/JPEG; null for PDFs and undecodable images (the UI shows an icon). */
  thumbnail: Blob | null;
  /** Amount, date and merchant as OCR read them or the person typed them (matching's input). */
  extracted?: ReceiptExtracted;
  /**
   * The transaction it was matched to from the inbox (`auto`: attached without asking); null
   * once the person undid a match (no automatic attach again until the fields change).
   */
  match?: ReceiptMatch | null;
  /** The matcher's ranked candidates when the fields were last set. */
  suggestions?: MatchCandidate[];
}

export interface ReceiptMatch {
  transaction_id: string;
  score: number;
  auto: boolean;
}

export class ReceiptStore implements LocalFilesPort {
  private readonly db: Dexie;
  private readonly table: Table<StoredReceipt, string>;
  private readonly listeners = new Set<(ids: string[]) => void>();

  constructor(readonly name: string, options?: DexieOptions) {
    this.db = new Dexie(name, options);
    this.db.version(1).stores({ receipts: 'id, sha256, server_id' });
    this.table = this.db.table('receipts');
  }

  /** Told the ids of receipts added, changed or removed (the UI re-reads them). */
  onChange(listener: (ids: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(ids: string[]) {
    for (const l of this.listeners) l(ids);
  }

  /**
   * Keeps a receipt, unless the same bytes are already here: then that receipt is answered
   * (one upload per file, as the server keeps one row per content).
   */
  async add(receipt: StoredReceipt): Promise<{ receipt: StoredReceipt; added: boolean }> {
    const result = await this.db.transaction('rw', this.table, async () => {
      const same = await this.table.where('sha256').equals(receipt.sha256).first();
      if (same) return { receipt: same, added: false };
      await this.table.add(receipt);
      return { receipt, added: true };
    });
    if (result.added) this.changed([receipt.id]);
    return result;
  }

  get(id: string): Promise<StoredReceipt | undefined> {
    return this.table.get(id);
  }

  /** Receipts named by client id or by server id (a transaction's `receipt_ids` hold either), in that order. */
  async find(ids: readonly string[]): Promise<(StoredReceipt | null)[]> {
    const byClient = await this.table.bulkGet([...ids]);
    const missing = ids.filter((_, i) => !byClient[i]);
    const byServer = missing.length ? await this.table.where('server_id').anyOf(missing).toArray() : [];
    const serverMap = new Map(byServer.map((r) => [r.server_id!, r]));
    return ids.map((id, i) => byClient[i] ?? serverMap.get(id) ?? null);
  }

  /** Every receipt on this device, newest first. */
  async list(): Promise<StoredReceipt[]> {
    const all = await this.table.toArray();
    return all.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : -1));
  }

  /** Changes a receipt's matching fields (extracted, match, suggestions); false when it is gone. */
  async update(id: string, changes: Pick<Partial<StoredReceipt>, 'extracted' | 'match' | 'suggestions'>): Promise<boolean> {
    const updated = await this.table.update(id, changes);
    if (updated) this.changed([id]);
    return updated > 0;
  }

  async remove(id: string): Promise<void> {
    await this.table.delete(id);
    this.changed([id]);
  }

  async read(id: string): Promise<{ body: Blob; contentType: string } | null> {
    const r = await this.table.get(id);
    return r ? { body: r.file, contentType: r.content_type } : null;
  }

  async serverIds(ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.table.bulkGet([...ids]);
    const out = new Map<string, string>();
    for (const r of rows) if (r?.server_id) out.set(r.id, r.server_id);
    return out;
  }

  async setUploadState(id: string, state: UploadState): Promise<void> {
    const changes: Partial<StoredReceipt> = { upload: state };
    if (state.kind === 'uploaded') changes.server_id = state.server_id;
    const updated = await this.table.update(id, changes);
    if (updated) this.changed([id]);
  }

  close(): void {
    this.db.close();
  }

  /** Deletes the database (the mirror it belongs to was deleted). */
  async delete(): Promise<void> {
    await this.db.delete();
  }
}

let defaultOptions: DexieOptions | undefined;
const open = new Map<string, ReceiptStore>();

/** The receipt store of a mirror database (one per business and user), opened once per worker. */
export function receiptStoreFor(mirrorDbName: string): ReceiptStore {
  const name = `${mirrorDbName}-receipts`;
  let store = open.get(name);
  if (!store) open.set(name, (store = new ReceiptStore(name, defaultOptions)));
  return store;
}

/** Deletes a mirror's receipt files (the mirror itself was deleted: nothing was left to send). */
export async function deleteReceiptStore(mirrorDbName: string): Promise<void> {
  const name = `${mirrorDbName}-receipts`;
  const store = open.get(name) ?? new ReceiptStore(name, defaultOptions);
  open.delete(name);
  await store.delete();
}

/** Tests: the IndexedDB (fake-indexeddb) every store opened from now on uses. */
export function useReceiptStoreOptions(options: DexieOptions | undefined): void {
  defaultOptions = options;
  for (const s of open.values()) s.close();
  open.clear();
}
