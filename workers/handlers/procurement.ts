import type { z } from 'zod';
import {
  addSpendAllocationUsers, cancelSpendIntent, closePurchaseOrder, createSpendAllocation, createSpendIntent, deleteItemReceipt,
  deleteSpendRequestDocument, getItemReceiptDocument, getMatchTolerances, getPurchaseOrderPdf, getSpendRequestDocument, listSpendIntents,
  overrideBillMatch, putMatchTolerances, updateSpendAllocation, uploadItemReceiptDocument, uploadSpendRequestDocument,
  type ProcurementDocument, type spendAllocationCreateSchema, type spendAllocationPatchSchema, type spendIntentCreateSchema, type SpendIntent,
} from '../../schema/api/calls-procurement.ts';
import type { CallDef } from '../../schema/api/define-call.ts';
import type { MatchTolerances } from '../../schema/bill-match.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import type { PurchaseOrder } from '../../schema/entities/purchase-order.ts';
import type { SpendAllocation } from '../../schema/entities/spend-allocation.ts';
import type { SpendRequest } from '../../schema/entities/spend-request.ts';
import { MAX_PAGE_SIZE } from '../../schema/paging.ts';
import type { CallOptions } from '../../sync/index.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { checkReceiptFile } from '../receipt-store-files.ts';
import { allPages, answerOf, bindDomain, custom, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: budgets, intents, purchase orders and documents are the server's. */
export const PROCUREMENT_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent. Requests and received items can still be made offline.');

export type SpendIntentCreate = z.input<typeof spendIntentCreateSchema>;
export type SpendAllocationCreate = z.input<typeof spendAllocationCreateSchema>;
export type SpendAllocationPatch = z.input<typeof spendAllocationPatchSchema>;
export type { ProcurementDocument, SpendIntent };

/** Writes answer the row and the feed's seq of the write (always sent with a written row): the UI takes the row (the feed brings it to the mirror too). */
const asRow = <T extends { change_seq: number }>(d: Omit<T, 'change_seq'> & { change_seq?: number }): T => ({ ...d, change_seq: d.change_seq ?? 0 }) as T;
const allocation = (d: Omit<SpendAllocation, 'change_seq'> & { change_seq?: number }) => ({ allocation: asRow<SpendAllocation>(d) });
const purchaseOrder = (d: { purchase_order: PurchaseOrder }) => ({ purchase_order: d.purchase_order });

/** A file answer (a PO's PDF, a document's bytes) as a Blob typed by the server's Content-Type. */
function fileOf<C extends CallDef, A extends unknown[]>(def: C, opts: (...args: A) => CallOptions<C>) {
  return custom((_send, port, offline) => async (...args: A): Promise<{ ok: true; file: Blob } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const r = answerOf(port, await port.requireHttp().blob(def, opts(...args)), offline);
    return r.ok ? { ok: true, file: r.data } : r;
  });
}

/**
 * A document upload: the file checked as the server will check it first (the receipts' types and
 * size, its bytes' content: schema/file-content.ts), so a file it would refuse is never sent; then
 * sent raw with its type.
 */
function uploadOf<C extends CallDef>(def: C, opts: (id: string, file: NonNullable<CallOptions<C>['file']>) => CallOptions<C>) {
  return custom((send, port, offline) => async (id: string, file: Blob): Promise<{ ok: true; document: ProcurementDocument } | OnlineFailure> => {
    if (!port.hub.online) return offline;
    const name = (file as { name?: unknown }).name;
    const label = typeof name === 'string' ? name : '';
    const shallow = checkReceiptFile(label, file.type, file.size);
    if (!shallow.ok) return { ok: false, error: shallow.error };
    const bytes = new Uint8Array(await file.arrayBuffer());
    const check = checkReceiptFile(label, file.type, file.size, bytes);
    if (!check.ok) return { ok: false, error: check.error };
    const r = await send(def, opts(id, { body: file, contentType: check.contentType }));
    return r.ok ? { ok: true, document: r.data as ProcurementDocument } : r;
  });
}

/**
 * Issue 28 (schema/api/calls-procurement.ts), the online-only part of procurement: spend intents,
 * budgets (spend allocations: create, edit, members), closing a purchase order and its PDF, deleting
 * an item receipt, the match tolerances, the admin's match override, and the documents of requests
 * and receipts. Direct calls, online only (PROCUREMENT_OFFLINE). Spend requests and "Receive items"
 * are outbox commands (schema/commands/spend-request.ts, item-receipt.ts), offline too; lists come
 * from the mirror (`spend_requests`; reference data `purchase_orders`, `spend_allocations`). What a
 * call changes on mirrored rows comes back through the feed.
 */
export const PROCUREMENT_CALLS = onlineDomain(PROCUREMENT_OFFLINE, {
  /** "I am about to spend" on a card: an authorization within the amount and category for 7 days. */
  createSpendIntent: via(createSpendIntent, (body: SpendIntentCreate) => ({ body }), (intent: SpendIntent) => ({ intent })),
  /** The intents the signed-in person may see (of one card when named), newest first. */
  spendIntents: custom((send) => async (card_id?: string): Promise<{ ok: true; intents: SpendIntent[] } | OnlineFailure> => {
    const r = await allPages((start) => send(listSpendIntents, { query: { page_size: MAX_PAGE_SIZE, ...(card_id ? { card_id } : {}), ...(start ? { start } : {}) } }));
    return r.ok ? { ok: true, intents: r.rows } : r;
  }),
  /** An ACTIVE intent becomes CANCELED (PROCUREMENT_7015 when it no longer is). */
  cancelSpendIntent: via(cancelSpendIntent, (intent_id: string) => ({ params: { intent_id } }), (intent: SpendIntent) => ({ intent })),
  /** Admins and managers (PROCUREMENT_7016 otherwise). */
  createSpendAllocation: via(createSpendAllocation, (body: SpendAllocationCreate) => ({ body }), allocation),
  updateSpendAllocation: via(updateSpendAllocation, (spend_allocation_id: string, patch: SpendAllocationPatch) => ({ params: { spend_allocation_id }, body: patch }), allocation),
  /** Live users of the business, added once each. */
  addSpendAllocationUsers: via(addSpendAllocationUsers, (spend_allocation_id: string, user_ids: string[]) => ({ params: { spend_allocation_id }, body: { user_ids } }), allocation),
  /** Nothing more is received or billed against it. Bill managers only. */
  closePurchaseOrder: via(closePurchaseOrder, (purchase_order_id: string) => ({ params: { purchase_order_id } }),
    (d: Omit<PurchaseOrder, 'change_seq'> & { change_seq?: number }) => ({ purchase_order: asRow<PurchaseOrder>(d) })),
  /** The PO as a PDF to send to the vendor. */
  purchaseOrderPdf: fileOf(getPurchaseOrderPdf, (purchase_order_id: string) => ({ params: { purchase_order_id } })),
  /** The PO's received quantities and status follow. */
  deleteItemReceipt: via(deleteItemReceipt, (item_receipt_id: string) => ({ params: { item_receipt_id } }), purchaseOrder),
  matchTolerances: via(getMatchTolerances, () => ({}), (tolerances: MatchTolerances) => ({ tolerances })),
  /** Admins. */
  saveMatchTolerances: via(putMatchTolerances, (body: MatchTolerances) => ({ body }), (tolerances: MatchTolerances) => ({ tolerances })),
  /** Admins: a MISMATCHED bill may be paid, with the reason (audited); its `po_match` becomes OVERRIDDEN. */
  overrideBillMatch: via(overrideBillMatch, (bill_uuid: string, reason: string) => ({ params: { bill_uuid }, body: { reason } }), (bill: Bill) => ({ bill })),
  /** A quote or contract on a request (DRAFT or PENDING_APPROVAL): the request's `document_ids` gain it. */
  uploadSpendRequestDocument: uploadOf(uploadSpendRequestDocument, (spend_request_uuid, file) => ({ params: { spend_request_uuid }, file })),
  spendRequestDocument: fileOf(getSpendRequestDocument, (spend_request_uuid: string, document_id: string) => ({ params: { spend_request_uuid, document_id } })),
  deleteSpendRequestDocument: via(deleteSpendRequestDocument, (spend_request_uuid: string, document_id: string) => ({ params: { spend_request_uuid, document_id } }),
    (d: Omit<SpendRequest, 'change_seq'> & { change_seq?: number }) => ({ request: asRow<SpendRequest>(d) })),
  /** A packing slip on an item receipt. */
  uploadItemReceiptDocument: uploadOf(uploadItemReceiptDocument, (item_receipt_id, file) => ({ params: { item_receipt_id }, file })),
  itemReceiptDocument: fileOf(getItemReceiptDocument, (item_receipt_id: string, document_id: string) => ({ params: { item_receipt_id, document_id } })),
});

export type ProcurementApi = OnlineApi<typeof PROCUREMENT_CALLS>;

export const procurementHandlers = (port: OnlinePort): ProcurementApi => bindDomain(port, PROCUREMENT_CALLS);
