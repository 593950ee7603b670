import {
  closePurchaseOrder, createItemReceipt, deleteItemReceipt, deleteItemReceiptDocument, getItemReceiptDocument, getMatchTolerances,
  getPurchaseOrder, getPurchaseOrderPdf, listItemReceipts, listPurchaseOrders, putMatchTolerances, uploadItemReceiptDocument,
} from '../../schema/api/calls-procurement.ts';
import { isAdmin } from '../../schema/roles.ts';
import { ApiError } from '../core/errors.ts';
import {
  createItemReceipt as createReceipt, deleteItemReceipt as deleteReceipt, deleteReceiptDocument, listItemReceipts as listReceipts,
  readReceiptDocument, uploadReceiptDocument,
} from '../domain/procurement/item-receipts.ts';
import { poPdfData, renderPoPdf } from '../domain/procurement/po-pdf.ts';
import { documentFileName } from '../domain/procurement/documents.ts';
import {
  closePurchaseOrder as closePo, findPurchaseOrder, listPurchaseOrders as listPos,
} from '../domain/procurement/purchase-orders.ts';
import { matchTolerancesOf, saveMatchTolerances } from '../domain/procurement/tolerances.ts';
import { refreshBusinessBillMatches } from '../domain/procurement/bill-match-store.ts';
import { receiptQuotas, takeQuota } from '../auth/quotas.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { billManagerOf, nowOf } from './bill-access.ts';

/**
 * Purchase orders, item receipts and the match tolerances (issue 28, PURCHASE_ORDER_CALLS; the
 * match override is the match's own, BILL_MATCH_CALLS). Reads and receipts: bill managers and the
 * PO's requester (anyone else, and another business, 404); closing: bill managers (403 first);
 * tolerances: bill managers read, admins write. POST runs in register's transaction; DELETE and
 * PUT open their own (or are one statement).
 */
export const purchaseOrderHandlers = {
  [listPurchaseOrders.id]: async (ctx) => ok(await listPos(ctx.db, actorOf(ctx).user, ctx.input.query)),

  [getPurchaseOrder.id]: async (ctx) => ok(await findPurchaseOrder(ctx.db, actorOf(ctx).user, ctx.input.params.purchase_order_id)),

  [closePurchaseOrder.id]: async (ctx) => {
    const user = billManagerOf(ctx);
    return ok(await closePo(ctx.db, user, ctx.input.params.purchase_order_id, nowOf(ctx)));
  },

  [getPurchaseOrderPdf.id]: async (ctx) => {
    const data = await poPdfData(ctx.db, actorOf(ctx).user, ctx.input.params.purchase_order_id);
    const bytes = await renderPoPdf(data);
    return ctx.c.body(bytes.slice().buffer, 200, {
      ...fileHeaders('application/pdf', `${data.po.po_number}.pdf`),
      'content-length': String(bytes.length),
      'cache-control': 'private, no-store',
    });
  },

  [getMatchTolerances.id]: async (ctx) => ok(await matchTolerancesOf(ctx.db, billManagerOf(ctx).business_id)),

  [putMatchTolerances.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    if (!isAdmin(user)) throw new ApiError('FORBIDDEN_7003', 'Only administrators can change the match tolerances.');
    // New tolerances re-match every open bill that names a PO, in the same transaction.
    return ok(await ctx.deps.db.transaction(async (tx) => {
      const saved = await saveMatchTolerances(tx, user.business_id, ctx.input.body);
      await refreshBusinessBillMatches(tx, user.business_id);
      return saved;
    }));
  },

  [createItemReceipt.id]: async (ctx) => {
    const { answer, created } = await createReceipt(ctx.db, actorOf(ctx).user, ctx.input.body, nowOf(ctx));
    return ok(answer, created ? 201 : 200);
  },

  [listItemReceipts.id]: async (ctx) => ok(await listReceipts(ctx.db, actorOf(ctx).user, ctx.input.query)),

  [deleteItemReceipt.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await ctx.deps.db.transaction((tx) => deleteReceipt(tx, user, ctx.input.params.item_receipt_id)));
  },

  [uploadItemReceiptDocument.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    // Packing slips share the person's upload allowance with receipts (a refused write rolls its use back).
    await takeQuota(ctx.c, ctx.db, receiptQuotas(ctx.deps.quotas, user.id, ctx.input.body.length), ctx.deps.now());
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await uploadReceiptDocument(ctx.db, user, ctx.input.params.item_receipt_id, contentType, ctx.input.body, nowOf(ctx)), 201);
  },

  [getItemReceiptDocument.id]: async (ctx) => {
    const { item_receipt_id: receiptId, document_id: documentId } = ctx.input.params;
    const doc = await readReceiptDocument(ctx.db, actorOf(ctx).user, receiptId, documentId);
    return ctx.c.body(new Uint8Array(doc.bytes), 200, {
      ...fileHeaders(doc.content_type, documentFileName('item-receipt-document', doc)),
      'content-length': String(doc.size),
      'cache-control': 'private, max-age=31536000, immutable',
    });
  },

  [deleteItemReceiptDocument.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { item_receipt_id: receiptId, document_id: documentId } = ctx.input.params;
    return ok(await ctx.deps.db.transaction((tx) => deleteReceiptDocument(tx, user, receiptId, documentId)));
  },
} satisfies DomainHandlers;
