import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { uploadBodySchema } from './define-call.ts';
import { RECEIPT_CONTENT_TYPES, RECEIPT_MAX_BYTES } from './calls-receipts.ts';
import {
  MAX_LINE_QUANTITY, MAX_REQUEST_LINES, requestMoneySchema, spendRequestSchema, spendRequestStatusSchema, spendRequestTypeSchema,
} from '../entities/spend-request.ts';
import { itemReceiptLineSchema, itemReceiptSchema, purchaseOrderSchema, purchaseOrderStatusSchema } from '../entities/purchase-order.ts';
import { spendAllocationLimitSchema, spendAllocationSchema } from '../entities/spend-allocation.ts';
import { limitIntervalSchema, MAX_CARD_LIMIT, merchantCategorySchema } from '../entities/card.ts';
import { billSchema } from '../entities/bill.ts';
import { matchTolerancesSchema } from '../bill-match.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Issue 28, procurement (§7 "Spend requests and purchase orders"): spend requests (mirrored,
 * collection `spend_requests`: create, edit, submit, cancel and delete are outbox commands),
 * spend intents, spend allocations (budgets; `refs`), purchase orders and item receipts
 * (`refs`: "Receive items" is an outbox command), the business's match tolerances and the
 * admin's override of a bill's three-way match.
 *
 * Who (§6): anyone requests for themselves; for someone else (`for_user_id`) a manager for their
 * reporting team and a bookkeeper for anyone (`canRequestSpendForOthers` + the reporting chain),
 * else 403 PROCUREMENT_7002. Budgets are created and given members by admins and managers
 * (`canCreateSpendAllocations`). Purchase orders and item receipts: bill managers
 * (`mayManageBills`) and the PO's requester. Another business's ids are 404.
 */
const scopes = { scopes: ['default'] } as const;
const text = (max: number) => z.string().trim().max(max);
const isoDate = z.iso.date();

// --- Spend requests ------------------------------------------------------------------------------

const requestParams = z.object({ spend_request_uuid: z.uuid() });

/** A line as asked for: its id is the server's (or derived from the request's client id and position offline). */
export const requestLineBodySchema = z.object({
  description: text(500).min(1),
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY),
  unit_price: z.number().int().min(0).max(MAX_CARD_LIMIT),
});
export type RequestLineBody = z.infer<typeof requestLineBodySchema>;

export const spendRequestCreateSchema = z.object({
  /** Client-generated id (offline create): a repeat by the same caller answers the stored request. */
  id: z.uuid().optional(),
  type: spendRequestTypeSchema,
  amount: requestMoneySchema,
  description: text(2000).min(1),
  vendor_id: z.uuid().nullable().optional(),
  line_items: z.array(requestLineBodySchema).max(MAX_REQUEST_LINES).optional(),
  needed_by: isoDate.nullable().optional(),
  /** Ask on behalf of someone else (§6: managers for their team, bookkeepers). */
  for_user_id: z.uuid().optional(),
  /** GENERAL_EXPENSE, PHYSICAL_CARD: the limit's interval (default TOTAL: a one-off budget). */
  interval: limitIntervalSchema.optional(),
  /** GENERAL_EXPENSE: more room in this allocation instead of a new card. */
  spend_allocation_id: z.uuid().nullable().optional(),
  /** false: keep it as a DRAFT; default true: submit it for approval at once. */
  submit: z.boolean().optional(),
});
export type SpendRequestCreate = z.infer<typeof spendRequestCreateSchema>;

/** A draft's edit (`line_items` replaces all); `submit: true` sends it for approval. */
export const spendRequestPatchSchema = z.object({
  amount: requestMoneySchema.optional(),
  description: text(2000).min(1).optional(),
  vendor_id: z.uuid().nullable().optional(),
  line_items: z.array(requestLineBodySchema).max(MAX_REQUEST_LINES).optional(),
  needed_by: isoDate.nullable().optional(),
  interval: limitIntervalSchema.optional(),
  spend_allocation_id: z.uuid().nullable().optional(),
  submit: z.literal(true).optional(),
});
export type SpendRequestPatch = z.infer<typeof spendRequestPatchSchema>;

const spendRequestListQuerySchema = pageQuerySchema.extend({
  status: spendRequestStatusSchema.optional(),
  type: spendRequestTypeSchema.optional(),
  /** Whose requests (the viewer's own by default; others' as visibility allows). */
  user_id: z.uuid().optional(),
});

/** A file attached to a request or an item receipt (the receipts' content types and size). */
export const procurementDocumentSchema = z.object({
  id: z.uuid(),
  content_type: z.enum(RECEIPT_CONTENT_TYPES),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created_at: z.string(),
});
export type ProcurementDocument = z.infer<typeof procurementDocumentSchema>;
const documentUpload = { contentTypes: RECEIPT_CONTENT_TYPES, maxBytes: RECEIPT_MAX_BYTES };

/** Writes answer the request and the feed's seq of the write. */
const requestAnswerSchema = spendRequestSchema.extend({ change_seq: z.number().int().optional() });

const requests = callGroup('/v1/auth/spend-requests', scopes);

/** 201; PENDING_APPROVAL (an approval opened through the `spend_request` policy) unless `submit: false`. */
export const createSpendRequest = requests('spendRequests.create', 'POST', '', {
  body: spendRequestCreateSchema, response: requestAnswerSchema,
});
export const listSpendRequests = requests('spendRequests.list', 'GET', '', {
  query: spendRequestListQuerySchema, response: paginatedSchema(spendRequestSchema),
});
export const getSpendRequest = requests('spendRequests.get', 'GET', '/:spend_request_uuid', {
  params: requestParams, response: spendRequestSchema,
});
export const updateSpendRequest = requests('spendRequests.update', 'PATCH', '/:spend_request_uuid', {
  params: requestParams, body: spendRequestPatchSchema, response: requestAnswerSchema,
});
/** The requester (or who asked for them) withdraws a draft or pending request; its open approval is canceled too. */
export const cancelSpendRequest = requests('spendRequests.cancel', 'POST', '/:spend_request_uuid/cancel', {
  params: requestParams, response: requestAnswerSchema,
});
/** §7 "DELETE spend-requests: … the request itself (body)": a DRAFT, REJECTED or CANCELED request becomes a tombstone. */
export const deleteSpendRequest = requests('spendRequests.delete', 'DELETE', '', {
  body: z.object({ spend_request_uuid: z.uuid() }),
  response: z.object({ id: z.uuid(), deleted: z.literal(true), change_seq: z.number().int() }),
});
/** The body is the file (a quote, a contract); 201 with the document; the request's `document_ids` gain it. */
export const uploadSpendRequestDocument = requests('spendRequests.documents.upload', 'POST', '/:spend_request_uuid/documents', {
  params: requestParams, body: uploadBodySchema, upload: documentUpload, response: procurementDocumentSchema,
});
export const getSpendRequestDocument = requests('spendRequests.documents.file', 'GET', '/:spend_request_uuid/documents/:document_id', {
  params: requestParams.extend({ document_id: z.uuid() }), response: z.string(),
});
export const deleteSpendRequestDocument = requests('spendRequests.documents.delete', 'DELETE', '/:spend_request_uuid/documents/:document_id', {
  params: requestParams.extend({ document_id: z.uuid() }), response: requestAnswerSchema,
});

// --- Spend intents -------------------------------------------------------------------------------

export const SPEND_INTENT_DAYS = 7;
const SPEND_INTENT_STATUSES = ['ACTIVE', 'USED', 'EXPIRED', 'CANCELED'] as const;

/**
 * "I am about to spend": on the cardholder's card, one authorization at `merchant_category` up to
 * `amount` within SPEND_INTENT_DAYS is approved even where the card's category list or
 * per-purchase cap would decline it (never past the card's or its allocation's limit); the
 * authorization uses the intent (USED). EXPIRED is computed from `expires_at`.
 */
export const spendIntentSchema = z.object({
  id: z.uuid(),
  card_id: z.uuid(),
  user_id: z.uuid(),
  amount: requestMoneySchema,
  merchant_category: merchantCategorySchema,
  description: z.string().nullable(),
  status: z.enum(SPEND_INTENT_STATUSES),
  transaction_id: z.uuid().nullable(),
  expires_at: z.string(),
  created_at: z.string(),
});
export type SpendIntent = z.infer<typeof spendIntentSchema>;

export const spendIntentCreateSchema = z.object({
  card_id: z.uuid(),
  amount: requestMoneySchema,
  merchant_category: merchantCategorySchema,
  description: text(500).nullable().optional(),
});

const intents = callGroup('/v1/auth/spend-intents', scopes);
export const createSpendIntent = intents('spendIntents.create', 'POST', '', { body: spendIntentCreateSchema, response: spendIntentSchema });
export const listSpendIntents = intents('spendIntents.list', 'GET', '', {
  query: pageQuerySchema.extend({ card_id: z.uuid().optional() }), response: paginatedSchema(spendIntentSchema),
});
/** §7 "DELETE spend-requests: … spend-intents/{intent}": an ACTIVE intent becomes CANCELED. */
export const cancelSpendIntent = requests('spendIntents.delete', 'DELETE', '/spend-intents/:intent_id', {
  params: z.object({ intent_id: z.uuid() }), response: spendIntentSchema,
});

// --- Spend allocations (budgets) -----------------------------------------------------------------

const allocationParams = z.object({ spend_allocation_id: z.uuid() });

export const spendAllocationCreateSchema = z.object({
  name: text(120).min(1),
  description: text(2000).nullable().optional(),
  /** Default: the creator. */
  owner_id: z.uuid().optional(),
  member_ids: z.array(z.uuid()).max(500).optional(),
  limit: spendAllocationLimitSchema,
  end_date: isoDate.nullable().optional(),
});
export const spendAllocationPatchSchema = z.object({
  name: text(120).min(1).optional(),
  description: text(2000).nullable().optional(),
  owner_id: z.uuid().optional(),
  limit: spendAllocationLimitSchema.optional(),
  end_date: isoDate.nullable().optional(),
  archived: z.boolean().optional(),
});
const allocationAnswerSchema = spendAllocationSchema.extend({ change_seq: z.number().int().optional() });

const allocations = callGroup('/v1/auth/spend-allocations', scopes);
export const createSpendAllocation = allocations('spendAllocations.create', 'POST', '', {
  body: spendAllocationCreateSchema, response: allocationAnswerSchema,
});
export const listSpendAllocations = allocations('spendAllocations.list', 'GET', '', {
  query: pageQuerySchema, response: paginatedSchema(spendAllocationSchema),
});
export const getSpendAllocation = allocations('spendAllocations.get', 'GET', '/:spend_allocation_id', {
  params: allocationParams, response: spendAllocationSchema,
});
export const updateSpendAllocation = allocations('spendAllocations.update', 'PATCH', '/:spend_allocation_id', {
  params: allocationParams, body: spendAllocationPatchSchema, response: allocationAnswerSchema,
});

const allocation = callGroup('/v1/auth/spend-allocation', scopes);
/** §7 "PUT spend-allocation add-users": live users of the business, added once each. */
export const addSpendAllocationUsers = allocation('spendAllocations.addUsers', 'PUT', '/:spend_allocation_id/add-users', {
  params: allocationParams, body: z.object({ user_ids: z.array(z.uuid()).min(1).max(500) }), response: allocationAnswerSchema,
});
/**
 * §7 "PUT spend-allocation … requests": a member asks for more room in the allocation — a
 * GENERAL_EXPENSE spend request naming it, in its currency (201, PENDING_APPROVAL).
 */
export const requestSpendAllocationRoom = allocation('spendAllocations.request', 'PUT', '/:spend_allocation_id/requests', {
  params: allocationParams,
  body: z.object({ id: z.uuid().optional(), amount: z.number().int().positive().max(MAX_CARD_LIMIT), description: text(2000).min(1) }),
  response: requestAnswerSchema,
});

// --- Purchase orders and item receipts -----------------------------------------------------------

const poParams = z.object({ purchase_order_id: z.uuid() });
const poAnswerSchema = purchaseOrderSchema.extend({ change_seq: z.number().int().optional() });

const purchaseOrders = callGroup('/v1/auth/purchase-order-spend-requests', scopes);
export const listPurchaseOrders = purchaseOrders('purchaseOrders.list', 'GET', '/purchase-orders', {
  query: pageQuerySchema.extend({ status: purchaseOrderStatusSchema.optional(), vendor_id: z.uuid().optional() }),
  response: paginatedSchema(purchaseOrderSchema),
});
export const getPurchaseOrder = purchaseOrders('purchaseOrders.get', 'GET', '/purchase-orders/:purchase_order_id', {
  params: poParams, response: purchaseOrderSchema,
});
/** Close a PO by hand (nothing more received or billed against it). Bill managers only. */
export const closePurchaseOrder = purchaseOrders('purchaseOrders.close', 'POST', '/purchase-orders/:purchase_order_id/close', {
  params: poParams, response: poAnswerSchema,
});
/** The PO as a PDF to send to the vendor (`application/pdf`, attachment `PO-000123.pdf`). */
export const getPurchaseOrderPdf = purchaseOrders('purchaseOrders.pdf', 'GET', '/purchase-orders/:purchase_order_id/pdf', {
  params: poParams, response: z.string(),
});
/** The business's three-way match tolerances (read: bill managers; write: admins). */
export const getMatchTolerances = purchaseOrders('purchaseOrders.settings.get', 'GET', '/settings', { response: matchTolerancesSchema });
export const putMatchTolerances = purchaseOrders('purchaseOrders.settings.put', 'PUT', '/settings', {
  auth: { scopes: ['default'] }, body: matchTolerancesSchema, response: matchTolerancesSchema,
});

export const itemReceiptCreateSchema = z.object({
  /** Client-generated id (offline "Receive items"): a repeat answers the stored receipt. */
  id: z.uuid().optional(),
  purchase_order_id: z.uuid(),
  lines: z.array(itemReceiptLineSchema).min(1).max(MAX_REQUEST_LINES),
  received_at: z.iso.datetime({ offset: true }),
});
export type ItemReceiptCreate = z.infer<typeof itemReceiptCreateSchema>;
const receiptAnswerSchema = z.object({ item_receipt: itemReceiptSchema, purchase_order: purchaseOrderSchema, change_seq: z.number().int() });

const itemReceipts = callGroup('/v1/auth/item-receipts', scopes);
/** 201. Refused beyond what is still to arrive (PROCUREMENT_7010), on a CLOSED PO (7011), for another PO's line (7012). */
export const createItemReceipt = itemReceipts('itemReceipts.create', 'POST', '', { body: itemReceiptCreateSchema, response: receiptAnswerSchema });
export const listItemReceipts = itemReceipts('itemReceipts.list', 'GET', '', {
  query: pageQuerySchema.extend({ purchase_order_id: z.uuid().optional() }), response: paginatedSchema(itemReceiptSchema),
});
export const uploadItemReceiptDocument = itemReceipts('itemReceipts.documents.upload', 'POST', '/:item_receipt_id/documents', {
  params: z.object({ item_receipt_id: z.uuid() }), body: uploadBodySchema, upload: documentUpload, response: procurementDocumentSchema,
});
export const getItemReceiptDocument = itemReceipts('itemReceipts.documents.file', 'GET', '/:item_receipt_id/documents/:document_id', {
  params: z.object({ item_receipt_id: z.uuid(), document_id: z.uuid() }), response: z.string(),
});
/** §7 "DELETE spend-requests: item receipts": the PO's received quantities and status follow. */
export const deleteItemReceipt = requests('itemReceipts.delete', 'DELETE', '/item-receipts/:item_receipt_id', {
  params: z.object({ item_receipt_id: z.uuid() }), response: z.object({ purchase_order: purchaseOrderSchema, change_seq: z.number().int() }),
});
/** §7 "DELETE spend-requests: … item receipt documents". */
export const deleteItemReceiptDocument = requests('itemReceipts.documents.delete', 'DELETE', '/item-receipts/:item_receipt_id/documents/:document_id', {
  params: z.object({ item_receipt_id: z.uuid(), document_id: z.uuid() }),
  response: z.object({ purchase_order: purchaseOrderSchema, change_seq: z.number().int() }),
});

// --- Three-way match override --------------------------------------------------------------------

/** An admin lets a MISMATCHED bill be paid, with a reason (audited). The bill's `po_match` becomes OVERRIDDEN. */
export const overrideBillMatch = callGroup('/v1/auth/bill-pay', scopes)('bills.poMatch.override', 'POST', '/:bill_uuid/po-match/override', {
  params: z.object({ bill_uuid: z.uuid() }), body: z.object({ reason: text(1000).min(1) }), response: billSchema,
});

/** Spend requests (and a budget's room request, which is one), with their documents. */
export const SPEND_REQUEST_CALLS = [
  createSpendRequest, listSpendRequests, getSpendRequest, updateSpendRequest, cancelSpendRequest, deleteSpendRequest,
  uploadSpendRequestDocument, getSpendRequestDocument, deleteSpendRequestDocument, requestSpendAllocationRoom,
] as const;

/** Budgets (spend allocations) and spend intents. */
export const SPEND_BUDGET_CALLS = [
  createSpendIntent, listSpendIntents, cancelSpendIntent,
  createSpendAllocation, listSpendAllocations, getSpendAllocation, updateSpendAllocation, addSpendAllocationUsers,
] as const;

/** Purchase orders, item receipts and match tolerances. */
export const PURCHASE_ORDER_CALLS = [
  listPurchaseOrders, getPurchaseOrder, closePurchaseOrder, getPurchaseOrderPdf, getMatchTolerances, putMatchTolerances,
  createItemReceipt, listItemReceipts, uploadItemReceiptDocument, getItemReceiptDocument, deleteItemReceipt, deleteItemReceiptDocument,
] as const;

/** The three-way match's override (server/routes/bill-match.ts). */
export const BILL_MATCH_CALLS = [overrideBillMatch] as const;
