import { getReceiptFile, RECEIPT_CONTENT_TYPES, type ReceiptContentType } from '../../schema/api/calls-receipts.ts';
import { errorBody } from '../../schema/errors.ts';
import type { AddReceiptResult, ReceiptApi, ReceiptFileInput, ReceiptView } from '../api.ts';
import { receiptStoreFor, type ReceiptStore, type StoredReceipt } from '../receipt-store.ts';
import { checkReceiptFile, makeThumbnail, sha256Hex } from '../receipt-store-files.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Receipts on the device (issue 9 §2): files are checked, kept in the receipt store at once
 * (durable before the call resolves, offline too) and uploaded by the outbox (`receipt.upload`,
 * its own lane); attaching is the optimistic `transaction.attachReceipt` command, which waits
 * for the upload and is sent with the server's id.
 */
export function receiptHandlers(ctx: WorkerContext): ReceiptApi {
  const watched = new WeakSet<ReceiptStore>();
  const store = (): ReceiptStore | null => {
    const name = ctx.host.runtime ? ctx.stored?.db_name : undefined;
    if (!name) return null;
    const s = receiptStoreFor(name);
    if (!watched.has(s)) {
      watched.add(s);
      // Upload states move in the leader's outbox: the UI re-reads receipts on this name.
      s.onChange(() => ctx.hub.dataChanged(['receipts']));
    }
    return s;
  };
  const noMirror = () => ({ ok: false as const, error: errorBody('AUTH_7002').error_v2 });
  /** Fetches of server receipts in flight, by id (a list and its lightbox ask at once). */
  const fetching = new Map<string, Promise<ReceiptView>>();

  /** A server receipt's bytes, kept in the store under its server id; a `remote` view with the reason when it cannot be had. */
  async function fetchFromServer(s: ReceiptStore, id: string): Promise<ReceiptView> {
    const remote = (error: string) => ({ ...viewOf(id, null), error });
    if (!ctx.hub.online || !ctx.http) return remote(NOT_OFFLINE);
    const res = ctx.watch401(await ctx.http.blob(getReceiptFile, { params: { receipt_uuid: id } }));
    if (!res.ok) return remote(res.kind === 'network' || res.kind === 'timeout' ? NOT_OFFLINE : res.error.message);
    const type = (res.data.type.split(';')[0] ?? '').trim().toLowerCase();
    const contentType: ReceiptContentType = (RECEIPT_CONTENT_TYPES as readonly string[]).includes(type) ? (type as ReceiptContentType) : 'image/jpeg';
    const bytes = await res.data.arrayBuffer();
    const file = new Blob([bytes], { type: contentType });
    const receipt: StoredReceipt = {
      id, name: 'Receipt', content_type: contentType, size: bytes.byteLength, sha256: await sha256Hex(bytes),
      created_at: new Date(ctx.deps.clock.now()).toISOString(), upload: { kind: 'uploaded', server_id: id }, server_id: id,
      file, thumbnail: await makeThumbnail(file, contentType),
    };
    // The same bytes already here (captured on this device, not yet uploaded) answer as that receipt.
    const { receipt: kept } = await s.add(receipt);
    return viewOf(id, kept);
  }

  async function addOne(s: ReceiptStore, input: ReceiptFileInput, attach?: { transaction_id: string }): Promise<AddReceiptResult> {
    const rt = ctx.host.runtime;
    if (!rt) return { name: input.name, ...noMirror() };
    const check = checkReceiptFile(input.name, input.type || input.file.type, input.file.size);
    if (!check.ok) return { ok: false, name: input.name, error: check.error };
    const bytes = await input.file.arrayBuffer();
    const receipt: StoredReceipt = {
      id: crypto.randomUUID(),
      name: input.name,
      content_type: check.contentType,
      size: bytes.byteLength,
      sha256: await sha256Hex(bytes),
      created_at: new Date(ctx.deps.clock.now()).toISOString(),
      upload: { kind: 'local' },
      server_id: null,
      // A copy of its own: the picked File may point at a file the user later changes.
      file: new Blob([bytes], { type: check.contentType }),
      thumbnail: await makeThumbnail(input.file, check.contentType),
    };
    const { receipt: kept, added } = await s.add(receipt);
    if (added) {
      const queued = await rt.commands.run('receipt.upload', {
        receipt_id: kept.id, content_type: kept.content_type, size: kept.size, sha256: kept.sha256,
      });
      if (!queued.result.ok) {
        await s.remove(kept.id);
        return { ok: false, name: input.name, error: queued.result.error };
      }
    }
    if (attach) {
      const attached = await rt.commands.run('transaction.attachReceipt', { transaction_id: attach.transaction_id, receipt_id: kept.id });
      if (!attached.result.ok) return { ok: false, name: input.name, error: attached.result.error };
    }
    return { ok: true, name: input.name, receipt_id: kept.id };
  }

  async function fetchReceipt(id: string): Promise<ReceiptView> {
    const s = store();
    if (!s) return { ...viewOf(id, null), error: NOT_OFFLINE };
    const [here] = await s.find([id]);
    if (here) return viewOf(id, here);
    let pending = fetching.get(id);
    if (!pending) {
      pending = fetchFromServer(s, id).finally(() => fetching.delete(id));
      fetching.set(id, pending);
    }
    return pending;
  }

  return {
    async addReceipts(files, attach) {
      const s = store();
      if (!s) return files.map((f) => ({ name: f.name, ...noMirror() }));
      const results: AddReceiptResult[] = [];
      // One after another: two drops of the same bytes must meet in the store as one receipt.
      for (const f of files) results.push(await addOne(s, f, attach));
      ctx.host.engine?.kick();
      return results;
    },

    async receipts(ids) {
      const s = store();
      const found = s ? await s.find(ids) : ids.map(() => null);
      return ids.map((id, i) => viewOf(id, found[i] ?? null));
    },

    async receiptFile(id) {
      const s = store();
      if (!s) return null;
      const [r] = await s.find([id]);
      if (r) return r.file;
      const view = await fetchReceipt(id);
      if (view.state === 'remote') return null;
      return (await s.find([id]))[0]?.file ?? null;
    },

    fetchReceipt,

    async deleteLocalReceipt(id) {
      const s = store();
      const rt = ctx.host.runtime;
      if (!s || !rt) return noMirror();
      const uploads = rt.outboxIndex.entries().filter(
        (e) => e.command === 'receipt.upload' && (e.args as { receipt_id?: string }).receipt_id === id,
      );
      if (uploads.some((e) => e.state === 'sending')) {
        return { ok: false, error: errorBody('REQUEST_7001', 'The receipt is being uploaded; remove it once that is done.').error_v2 };
      }
      for (const e of uploads) {
        if (ctx.host.engine) await ctx.host.engine.discard(e.id);
        else await rt.outboxStore.remove(e.id);
      }
      await s.remove(id);
      return { ok: true, command_id: id, affected: 1, took_ms: 0 };
    },
  };
}

/** Why a receipt stored only on the server is not shown. */
export const NOT_OFFLINE = 'Not available offline';

function viewOf(id: string, r: StoredReceipt | null): ReceiptView {
  if (!r) {
    return {
      id, local_id: null, server_id: id, name: 'Receipt', content_type: null, size: null, sha256: null, created_at: null,
      state: 'remote', error: null, thumbnail: null,
    };
  }
  return {
    id,
    local_id: r.id,
    server_id: r.server_id,
    name: r.name,
    content_type: r.content_type,
    size: r.size,
    sha256: r.sha256,
    created_at: r.created_at,
    state: r.upload.kind,
    error: r.upload.kind === 'failed' ? r.upload.error.message : null,
    thumbnail: r.thumbnail,
  };
}
