import {
  cancelSpendRequest, createSpendRequest, deleteSpendRequest, deleteSpendRequestDocument, getSpendRequest, getSpendRequestDocument,
  listSpendRequests, requestSpendAllocationRoom, updateSpendRequest, uploadSpendRequestDocument,
} from '../../schema/api/calls-procurement.ts';
import { receiptQuotas, takeQuota } from '../auth/quotas.ts';
import {
  cancelSpendRequest as cancel, createSpendRequest as create, deleteSpendRequest as remove, findRequest, listSpendRequests as list,
  requestAllocationRoom, updateSpendRequest as update,
} from '../domain/procurement/spend-requests.ts';
import { deleteRequestDocument, readRequestDocument, uploadRequestDocument } from '../domain/procurement/request-documents.ts';
import { documentFileName } from '../domain/procurement/documents.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { afterTrigger } from '../domain/workflows/engine.ts';

/**
 * Issue 28: spend requests (rules in domain/procurement/). POST and PATCH run in register's
 * transaction (Idempotency-Key); PUT and DELETE are not keyed, so register runs them outside one
 * and they open their own. Writes answer the request with `change_seq` (the feed's seq of the write).
 */
const nowOf = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now());

export const spendRequestHandlers = {
  [createSpendRequest.id]: async (ctx) => ok(await afterTrigger(ctx.db, 'spend_request.created', await create(ctx.db, actorOf(ctx).user, ctx.input.body, nowOf(ctx))), 201),

  [listSpendRequests.id]: async (ctx) => {
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    return ok(await list(ctx.db, actorOf(ctx).user, { ...filter, pageSize: page_size, start, includeCount: include_count === true }));
  },

  [getSpendRequest.id]: async (ctx) => ok(await findRequest(ctx.db, actorOf(ctx).user, ctx.input.params.spend_request_uuid)),

  [updateSpendRequest.id]: async (ctx) =>
    ok(await update(ctx.db, actorOf(ctx).user, ctx.input.params.spend_request_uuid, ctx.input.body, nowOf(ctx))),

  [cancelSpendRequest.id]: async (ctx) => ok(await cancel(ctx.db, actorOf(ctx).user, ctx.input.params.spend_request_uuid, nowOf(ctx))),

  [deleteSpendRequest.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => remove(tx, user, ctx.input.body.spend_request_uuid, nowOf(ctx))));
  },

  [uploadSpendRequestDocument.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    await takeQuota(ctx.c, ctx.db, receiptQuotas(ctx.deps.quotas, user.id, ctx.input.body.length), ctx.deps.now());
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const file = { bytes: ctx.input.body, content_type: contentType };
    return ok(await uploadRequestDocument(ctx.db, user, ctx.input.params.spend_request_uuid, file, nowOf(ctx)), 201);
  },

  [getSpendRequestDocument.id]: async (ctx) => {
    const { spend_request_uuid: id, document_id: documentId } = ctx.input.params;
    const doc = await readRequestDocument(ctx.db, actorOf(ctx).user, id, documentId);
    return ctx.c.body(new Uint8Array(doc.bytes), 200, {
      ...fileHeaders(doc.content_type, documentFileName('spend-request-document', doc)),
      'cache-control': 'private, no-cache', 'content-length': String(doc.size),
    });
  },

  [deleteSpendRequestDocument.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { spend_request_uuid: id, document_id: documentId } = ctx.input.params;
    return ok(await ctx.deps.db.transaction((tx) => deleteRequestDocument(tx, user, id, documentId, nowOf(ctx))));
  },

  [requestSpendAllocationRoom.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const id = ctx.input.params.spend_allocation_id;
    return ok(await ctx.deps.db.transaction((tx) => requestAllocationRoom(tx, user, id, ctx.input.body, nowOf(ctx))), 201);
  },
} satisfies DomainHandlers;
