import {
  attachReceipt, deleteReceipt, detachReceipt, discardReceipt, getReceiptFile, getReceiptMetadata, uploadReceipt,
} from '../../schema/api/calls-receipts.ts';
import {
  attachReceipt as attach, deleteReceipt as remove, detachReceipt as detach, discardReceipt as discard, findReceipt, readReceiptFile, storeReceipt,
} from '../domain/receipts.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { ApiError } from '../core/errors.ts';
import { fileHeaders, receiptFileName } from '../http/file-headers.ts';
import { receiptQuotas, takeQuota } from '../auth/quotas.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Receipts (issue 9 §2). The upload's body is the file (the catalogue's `upload` spec: register
 * has already checked its declared type, emptiness and size); reads follow the `owner` rule on
 * the receipt's uploaders, and the two reads (file, metadata) also open a bill's invoice to anyone
 * its approval chain names; another business's or an invisible receipt is 404.
 */
export const receiptHandlers = {
  [uploadReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    await takeQuota(ctx.c, ctx.db, receiptQuotas(ctx.deps.quotas, user.id, ctx.input.body.length), ctx.deps.now());
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await storeReceipt(ctx.db, user, contentType, ctx.input.body, new Date(ctx.deps.now())), 201);
  },

  [getReceiptFile.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, actor.user);
    const file = await readReceiptFile(ctx.db, actor.businessId, vis, ctx.input.params.receipt_uuid, actor.user.id);
    if (!file) throw new ApiError('REQUEST_7004');
    // Content-addressed: the id names these bytes for good, so the browser may keep them.
    const headers = {
      ...fileHeaders(file.content_type, receiptFileName(file.id, file.content_type)),
      'cache-control': 'private, max-age=31536000, immutable',
      etag: `"${file.sha256}"`,
    };
    if (ctx.c.req.header('if-none-match')?.includes(`"${file.sha256}"`)) return ctx.c.body(null, 304, headers);
    return ctx.c.body(new Uint8Array(file.bytes), 200, {
      ...headers, 'content-length': String(file.size),
    });
  },

  [getReceiptMetadata.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, actor.user);
    const receipt = await findReceipt(ctx.db, actor.businessId, vis, ctx.input.params.receipt_uuid, undefined, actor.user.id);
    if (!receipt) throw new ApiError('REQUEST_7004');
    return ok(receipt);
  },

  // DELETEs are not idempotency-keyed, so register runs them outside a transaction: they open one.
  [deleteReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction(async (tx) => remove(tx, user, await visibilityOf(tx, user), ctx.input.params.receipt_uuid)));
  },

  [discardReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await discard(ctx.db, user, await visibilityOf(ctx.db, user), ctx.input.params.receipt_uuid));
  },

  [attachReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const vis = await visibilityOf(ctx.db, user);
    return ok(await attach(ctx.db, user, vis, ctx.input.params.transaction_canonical_uuid, ctx.input.body.receipt_id, new Date(ctx.deps.now())));
  },

  [detachReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { transaction_canonical_uuid: transactionId, receipt_uuid: receiptId } = ctx.input.params;
    return ok(await ctx.deps.db.transaction(async (tx) => detach(tx, user, await visibilityOf(tx, user), transactionId, receiptId)));
  },
} satisfies DomainHandlers;
