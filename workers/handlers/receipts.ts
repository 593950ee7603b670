import { getReceiptFile, RECEIPT_CONTENT_TYPES, type ReceiptContentType } from '../../schema/api/calls-receipts.ts';
import { errorBody, validationMessages } from '../../schema/errors.ts';
import { receiptExtractedSchema, type ReceiptExtracted } from '../../schema/receipt-matching.ts';
import type { AddReceiptResult, CommandResult, ReceiptApi, ReceiptFileInput, ReceiptView } from '../api.ts';
import { receiptStoreFor, type ReceiptStore, type StoredReceipt } from '../receipt-store.ts';
import { attachments, inboxOf, matchOverMirror } from '../receipt-store-matching.ts';
import { checkReceiptFile, makeThumbnail, sha256Hex } from '../receipt-store-files.ts';
import type { WorkerContext } from '../worker-context.ts';

/**
 * Receipts on the device (issue 9 §2): files are checked, kept in the receipt store at once
 * (durable before the call resolves, offline too) and uploaded by the outbox (`receipt.upload`,
 * its own lane); attaching is the optimistic `transaction.attachReceipt` command, which waits
 * for the upload and is sent with the server's id.
 */
export function receiptHandlers(ctx: WorkerContext): ReceiptApi {
  const m = receiptMirror(ctx);
  return { ...matchingHandlers(ctx, m), ...fileHandlers(ctx, m) };
}

type ReceiptMirror = ReturnType<typeof receiptMirror>;

/**
 * The open mirror's receipt store (its changes told to the UI) and the matching over the mirror:
 * attaching a receipt to a transaction, and matching the pending receipts again when
 * transactions change.
 */
function receiptMirror(ctx: WorkerContext) {
  const watched = new WeakSet<ReceiptStore>();
  let following = false;
  const store = (): ReceiptStore | null => {
    const name = ctx.host.runtime ? ctx.stored?.db_name : undefined;
    if (!name) return null;
    const s = receiptStoreFor(name);
    if (!watched.has(s)) {
      watched.add(s);
      // Upload states move in the leader's outbox: the UI re-reads receipts on this name.
      s.onChange(() => ctx.hub.dataChanged(['receipts']));
    }
    if (!following) {
      following = true;
      // A receipt snapped before its charge posted: match again when transactions change.
      ctx.hub.subscribe(() => undefined, (changed) => {
        if (changed.includes('transactions')) scheduleRematch();
      });
    }
    return s;
  };

  const rematchState = { scheduled: false, chain: Promise.resolve(0) };
  function scheduleRematch() {
    // The tab running the sync does it (another tab would only queue the same attach again).
    if (rematchState.scheduled || (!ctx.host.engine && ctx.deps.sync !== false)) return;
    rematchState.scheduled = true;
    void ctx.deps.clock.sleep(REMATCH_DELAY_MS).then(() => {
      rematchState.scheduled = false;
      return rematchPending();
    }).catch(() => undefined);
  }

  /**
   * Matches again every receipt whose fields are set, that is attached nowhere and whose match
   * the person never undid (`match` undefined): new suggestions stored, an exact one attached.
   */
  function rematchPending(): Promise<number> {
    // One run at a time: a run's own attach changes transactions and asks for the next.
    const next = rematchState.chain.catch(() => 0).then(async () => {
      const o = open();
      if (!o) return 0;
      const pending = (await o.s.list()).filter((r) => r.extracted?.amount && r.extracted.date && r.match === undefined);
      if (pending.length === 0) return 0;
      const held = await attachments(o.rt, pending);
      let attached = 0;
      for (const r of pending) {
        if (held.has(r.id)) continue;
        const result = await matchOverMirror(o.rt, o.me, r.extracted!);
        await o.s.update(r.id, { suggestions: result.candidates });
        const best = result.candidates[0];
        if (result.exact && best && (await attachTo(r.id, best.transaction_id, best.score, true)).ok) attached++;
      }
      return attached;
    });
    rematchState.chain = next;
    return next;
  }

  /** The open mirror, its receipt store and the signed-in person (a receipt's owner). */
  const open = () => {
    const s = store();
    const rt = ctx.host.runtime;
    const me = ctx.businessUserId();
    return s && rt && me ? { s, rt, me } : null;
  };

  async function attachTo(id: string, transactionId: string, score: number, auto: boolean): Promise<CommandResult> {
    const o = open();
    if (!o) return noMirror();
    const queued = await o.rt.commands.run('transaction.attachReceipt', { transaction_id: transactionId, receipt_id: id });
    if (!queued.result.ok) return queued.result;
    await o.s.update(id, { match: { transaction_id: transactionId, score, auto } });
    ctx.host.engine?.kick();
    return queued.result;
  }

  return { store, open, attachTo, rematchPending };
}

type MatchingApi = Pick<ReceiptApi, 'receiptInbox' | 'setReceiptFields' | 'rematchReceipts' | 'matchReceipt' | 'undoReceiptMatch'>;

/** The receipt inbox: a receipt's fields, its suggested transactions, matching and undoing it. */
function matchingHandlers(ctx: WorkerContext, m: ReceiptMirror): MatchingApi {
  const { open, attachTo, rematchPending } = m;
  async function inboxOne(id: string) {
    const o = open()!;
    const r = await o.s.get(id);
    return r ? (await inboxOf(o.rt, o.me, [r], viewOf))[0]! : null;
  }

  return {
    async receiptInbox() {
      const o = open();
      if (!o) return [];
      return inboxOf(o.rt, o.me, await o.s.list(), viewOf);
    },

    async setReceiptFields(id, input) {
      const o = open();
      if (!o) return noMirror();
      const parsed = receiptExtractedSchema.safeParse(input);
      if (!parsed.success) return { ok: false, error: errorBody('REQUEST_7001', undefined, validationMessages(parsed.error, input)).error_v2 };
      const fields = { ...parsed.data, merchant: parsed.data.merchant || undefined };
      const r = await o.s.get(id);
      if (!r) return notFound();
      const result = await matchOverMirror(o.rt, o.me, fields);
      const undone = r.match === null && sameFields(r.extracted, fields);
      // A changed reading is a new attempt: an earlier Undo no longer holds.
      await o.s.update(id, { extracted: fields, suggestions: result.candidates, ...(undone ? {} : { match: undefined }) });
      const attached = (await attachments(o.rt, [r])).has(r.id);
      const best = result.candidates[0];
      if (result.exact && best && !attached && !undone) {
        const done = await attachTo(id, best.transaction_id, best.score, true);
        if (!done.ok) return done;
      }
      const receipt = await inboxOne(id);
      return receipt ? { ok: true, receipt, exact: result.exact } : notFound();
    },

    rematchReceipts: () => rematchPending(),

    async matchReceipt(id, transactionId) {
      const o = open();
      if (!o) return noMirror();
      const r = await o.s.get(id);
      if (!r) return notFound();
      const score = r.suggestions?.find((c) => c.transaction_id === transactionId)?.score ?? 0;
      return attachTo(id, transactionId, score, false);
    },

    async undoReceiptMatch(id) {
      const o = open();
      if (!o) return noMirror();
      const r = await o.s.get(id);
      if (!r) return notFound();
      const at = (await attachments(o.rt, [r])).get(r.id);
      if (at) {
        const queued = await o.rt.commands.run('transaction.detachReceipt', { transaction_id: at.txn.id, receipt_id: at.as });
        if (!queued.result.ok) return queued.result;
      }
      await o.s.update(id, { match: null });
      ctx.host.engine?.kick();
      return { ok: true, command_id: id, affected: at ? 1 : 0, took_ms: 0 };
    },
  };
}

type FileApi = Pick<ReceiptApi, 'addReceipts' | 'receipts' | 'receiptFile' | 'fetchReceipt' | 'deleteLocalReceipt'>;

/** The receipt files: added (kept, upload queued), read, fetched from the server, removed. */
function fileHandlers(ctx: WorkerContext, m: ReceiptMirror): FileApi {
  const { store } = m;
  /** Fetches of server receipts in flight, by id (a list and its lightbox ask at once). */
  const fetching = new Map<string, Promise<ReceiptView>>();

  async function fetchReceipt(id: string): Promise<ReceiptView> {
    const s = store();
    if (!s) return { ...viewOf(id, null), error: NOT_OFFLINE };
    const [here] = await s.find([id]);
    if (here) return viewOf(id, here);
    let pending = fetching.get(id);
    if (!pending) {
      pending = fetchFromServer(ctx, s, id).finally(() => fetching.delete(id));
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
      for (const f of files) results.push(await addOne(ctx, s, f, attach));
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

const noMirror = () => ({ ok: false as const, error: errorBody('AUTH_7002').error_v2 });
const notFound = () => ({ ok: false as const, error: errorBody('REQUEST_7004', 'This receipt is not on this device.').error_v2 });

/** A server receipt's bytes, kept in the store under its server id; a `remote` view with the reason when it cannot be had. */
async function fetchFromServer(ctx: WorkerContext, s: ReceiptStore, id: string): Promise<ReceiptView> {
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

async function addOne(
  ctx: WorkerContext, s: ReceiptStore, input: ReceiptFileInput, attach?: { transaction_id: string },
): Promise<AddReceiptResult> {
  const rt = ctx.host.runtime;
  if (!rt) return { name: input.name, ...noMirror() };
  const declared = input.type || input.file.type;
  // Type and size first (a file too large is never read), then the content, as the server will judge it.
  const sized = checkReceiptFile(input.name, declared, input.file.size);
  if (!sized.ok) return { ok: false, name: input.name, error: sized.error };
  const bytes = await input.file.arrayBuffer();
  const check = checkReceiptFile(input.name, declared, bytes.byteLength, new Uint8Array(bytes));
  if (!check.ok) return { ok: false, name: input.name, error: check.error };
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
  return { ok: true, name: input.name, receipt_id: kept.id, added };
}

/** How long after a transactions change the pending receipts are matched again (feed batches come in bursts). */
const REMATCH_DELAY_MS = 1_000;

const sameFields = (a: ReceiptExtracted | undefined, b: ReceiptExtracted) =>
  !!a && a.amount?.minor === b.amount?.minor && a.amount?.currency === b.amount?.currency && a.date === b.date && (a.merchant ?? '') === (b.merchant ?? '');

/** Why a receipt stored only on the server is not shown. */
const NOT_OFFLINE = 'Not available offline';

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
