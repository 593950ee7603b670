import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ItemReceiptCreate, ProcurementDocument } from '../../../schema/api/calls-procurement.ts';
import type { ItemReceipt, PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { pageQuerySchema } from '../../../schema/paging.ts';
import { applyItemReceipt, checkItemReceipt } from '../../../schema/procurement-rules.ts';
import { mayManageBills } from '../../../schema/bill-rules.ts';
import type { ActingUser } from '../../core/actor.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';
import { deleteDocument, deleteOwnerDocuments, readDocument, storeDocument, type DocumentOwner } from './documents.ts';
import { afterPurchaseOrderChange, findPurchaseOrder } from './purchase-orders.ts';

/**
 * Item receipts (issue 28): what arrived against a PO. They live inside the PO's doc (reference
 * data), so every write here re-stamps the PO through `afterPurchaseOrderChange`. Who: bill
 * managers and the PO's requester — exactly who sees the PO, so anyone else gets the 404 of an
 * unknown id. Writes take the business row (writeMirrored) and then the PO row FOR UPDATE, so two
 * receipts for one PO are checked one after the other (checkItemReceipt); the lines' CHECK
 * (received_quantity ≤ quantity) is the last word should any writer skip the lock.
 */
const NOT_FOUND = 'This item receipt was not found.';
/** Offline devices record `received_at` by their own clock: a day ahead is the most we take on trust. */
const FUTURE_SLACK_MS = 24 * 3_600_000;

/** An item receipt's wire doc over alias `ir` (as the PO doc's `receipts` builds each). */
const RECEIPT_DOC = `jsonb_build_object(
    'id', ir.id, 'purchase_order_id', ir.purchase_order_id, 'received_at', ll_iso(ir.received_at),
    'received_by', ir.received_by, 'document_ids', to_jsonb(ir.document_ids), 'created_at', ll_iso(ir.created_at),
    'lines', (SELECT coalesce(jsonb_agg(jsonb_build_object('po_line_id', irl.po_line_id, 'quantity', irl.quantity) ORDER BY pl.position), '[]'::jsonb)
                FROM item_receipt_lines irl JOIN purchase_order_lines pl ON pl.id = irl.po_line_id WHERE irl.item_receipt_id = ir.id))`;

export type ReceiptAnswer = { item_receipt: ItemReceipt; purchase_order: PurchaseOrder; change_seq: number };

async function receiptDoc(db: Queryable, businessId: string, id: string): Promise<ItemReceipt | null> {
  const [row] = await db.query<{ doc: ItemReceipt }>(
    `SELECT ${RECEIPT_DOC} AS doc FROM item_receipts ir WHERE ir.business_id = $1 AND ir.id = $2 AND NOT ir.deleted`,
    [businessId, id],
  );
  return row?.doc ?? null;
}

/**
 * A create under a client id already stored (an offline "Receive items" resent after a lost
 * answer): the caller's own live receipt answers as it was stored; an id of anyone else's receipt,
 * another business's or a deleted one is refused on `id`. Null when the id is new.
 */
async function receiptUnderClientId(tx: Queryable, user: ActingUser, id: string): Promise<ReceiptAnswer | null> {
  const [row] = await tx.query<{ business_id: string; received_by: string; deleted: boolean; purchase_order_id: string }>(
    'SELECT business_id::text, received_by::text, deleted, purchase_order_id::text FROM item_receipts WHERE id = $1',
    [id],
  );
  if (!row) return null;
  if (row.business_id !== user.business_id || row.received_by !== user.id || row.deleted) {
    throw validationError({ id: 'id is already used by another item receipt' });
  }
  const po = await findPurchaseOrder(tx, user, row.purchase_order_id);
  return { item_receipt: (await receiptDoc(tx, user.business_id, id))!, purchase_order: po, change_seq: po.change_seq };
}

function checkReceivedAt(receivedAt: string, now: Date): void {
  if (Date.parse(receivedAt) > now.getTime() + FUTURE_SLACK_MS) {
    throw validationError({ received_at: 'received_at cannot be in the future' });
  }
}

/** Records a receipt: 201 `created`, or the stored answer of a repeated client id. */
export async function createItemReceipt(
  tx: Queryable, user: ActingUser, body: ItemReceiptCreate, now: Date,
): Promise<{ answer: ReceiptAnswer; created: boolean }> {
  checkReceivedAt(body.received_at, now);
  const id = body.id ?? randomUUID();
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    // Under the business row's lock, so a racing repeat of this id has committed or not started.
    const repeat = body.id ? await receiptUnderClientId(tx, user, id) : null;
    if (repeat) return { answer: repeat, created: false };
    const po = await findPurchaseOrder(tx, user, body.purchase_order_id, true);
    const check = checkItemReceipt(po, body.lines);
    if (!check.ok) throw new ApiError(check.code, check.message);
    await tx.query(
      `INSERT INTO item_receipts (id, business_id, purchase_order_id, received_at, received_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, user.business_id, po.id, body.received_at, user.id, now.toISOString()],
    );
    const lines = JSON.stringify(body.lines);
    await tx.query(
      `INSERT INTO item_receipt_lines (item_receipt_id, po_line_id, quantity)
       SELECT $1, x.po_line_id, x.quantity FROM jsonb_to_recordset($2::jsonb) AS x(po_line_id uuid, quantity bigint)`,
      [id, lines],
    );
    await moveReceived(tx, po, body.lines, 1, seqs.last);
    const answer = await answerFor(tx, user, po.id, id);
    return { answer, created: true };
  });
}

/**
 * Adds (or with `sign` −1 takes back) a receipt's quantities on the PO's lines and stores the
 * status that follows (applyItemReceipt: a CLOSED PO stays closed), stamped with `seq`.
 */
async function moveReceived(tx: Queryable, po: PurchaseOrder, lines: ItemReceipt['lines'], sign: 1 | -1, seq: number): Promise<void> {
  await tx.query(
    `UPDATE purchase_order_lines l SET received_quantity = l.received_quantity + $3 * x.quantity
       FROM jsonb_to_recordset($2::jsonb) AS x(po_line_id uuid, quantity bigint)
      WHERE l.purchase_order_id = $1 AND l.id = x.po_line_id`,
    [po.id, JSON.stringify(lines), sign],
  );
  const next = applyItemReceipt(po, lines, sign);
  await tx.query(
    'UPDATE purchase_orders SET status = $3, change_seq = $4, updated_at = now() WHERE business_id = $1 AND id = $2',
    [po.business_id, po.id, next.status, seq],
  );
}

/** The hook's fresh stamp, then the receipt and the PO as they now read. */
async function answerFor(tx: Queryable, user: ActingUser, poId: string, receiptId: string): Promise<ReceiptAnswer> {
  const changeSeq = await afterPurchaseOrderChange(tx, user.business_id, poId);
  const item_receipt = (await receiptDoc(tx, user.business_id, receiptId))!;
  return { item_receipt, purchase_order: await findPurchaseOrder(tx, user, poId), change_seq: changeSeq };
}

/**
 * A live receipt of the business whose PO the user may see, and that PO (`lock`: the PO row FOR
 * UPDATE, then the receipt re-read under it); anything else is 404.
 */
async function findReceiptAndPo(db: Queryable, user: ActingUser, id: string, lock = false): Promise<{ receipt: ItemReceipt; po: PurchaseOrder }> {
  const first = await receiptDoc(db, user.business_id, id);
  if (!first) throw new ApiError('REQUEST_7004', NOT_FOUND);
  const po = await findPurchaseOrder(db, user, first.purchase_order_id, lock).catch((e: unknown) => {
    throw e instanceof ApiError ? new ApiError('REQUEST_7004', NOT_FOUND) : e;
  });
  const receipt = lock ? await receiptDoc(db, user.business_id, id) : first;
  if (!receipt) throw new ApiError('REQUEST_7004', NOT_FOUND);
  return { receipt, po };
}

/** §7 "DELETE spend-requests: item receipts": a tombstone; the PO's quantities and status follow. A CLOSED PO's receipts stay. */
export async function deleteItemReceipt(tx: Queryable, user: ActingUser, id: string): Promise<{ purchase_order: PurchaseOrder; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const { receipt, po } = await findReceiptAndPo(tx, user, id, true);
    if (po.status === 'CLOSED') throw new ApiError('PROCUREMENT_7011', 'This purchase order is closed: its receipts can no longer change.');
    await tx.query('UPDATE item_receipts SET deleted = true WHERE business_id = $1 AND id = $2', [user.business_id, id]);
    await deleteOwnerDocuments(tx, ownerOf(user, id));
    await moveReceived(tx, po, receipt.lines, -1, seqs.last);
    const changeSeq = await afterPurchaseOrderChange(tx, user.business_id, po.id);
    return { purchase_order: await findPurchaseOrder(tx, user, po.id), change_seq: changeSeq };
  });
}

type ListQuery = z.output<typeof pageQuerySchema> & { purchase_order_id?: string };
const CURSOR = 'item_receipts';
const keyShape = z.tuple([z.string(), z.uuid()]);

/** The receipts of the POs the user may see (of one PO when named: an invisible one is 404), oldest first. */
export async function listItemReceipts(db: Queryable, user: ActingUser, q: ListQuery) {
  const params: unknown[] = [user.business_id];
  let where = 'ir.business_id = $1 AND NOT ir.deleted AND NOT p.deleted';
  if (!mayManageBills(user)) where += ` AND p.created_by = $${params.push(user.id)}::uuid`;
  if (q.purchase_order_id) {
    await findPurchaseOrder(db, user, q.purchase_order_id);
    where += ` AND ir.purchase_order_id = $${params.push(q.purchase_order_id)}::uuid`;
  }
  const from = 'item_receipts ir JOIN purchase_orders p ON p.id = ir.purchase_order_id';
  const total = q.include_count === true || q.page_size === 0
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM ${from} WHERE ${where}`, params))[0]?.n ?? 0)
    : undefined;
  const counted = total === undefined ? {} : { total_count: total };
  if (q.page_size === 0) return { data: [], page: { next: null }, ...counted };
  if (q.start) {
    const [k, id] = decodeCursor(q.start, CURSOR, keyShape) as [string, string];
    where += ` AND (ll_iso(ir.created_at), ir.id) > ($${params.push(k)}, $${params.push(id)}::uuid)`;
  }
  const rows = await db.query<{ doc: ItemReceipt; k: string }>(
    `SELECT ${RECEIPT_DOC} AS doc, ll_iso(ir.created_at) AS k FROM ${from}
      WHERE ${where} ORDER BY ll_iso(ir.created_at), ir.id LIMIT $${params.push(q.page_size + 1)}`,
    params,
  );
  const more = rows.length > q.page_size;
  const page = rows.slice(0, q.page_size);
  const last = page.at(-1);
  return { data: page.map((r) => r.doc), page: { next: more && last ? encodeCursor(CURSOR, [last.k, last.doc.id]) : null }, ...counted };
}

// --- Documents (packing slips): the store is documents.ts; the receipt's `document_ids` and the PO's stamp are kept here.

const ownerOf = (user: ActingUser, receiptId: string): DocumentOwner => ({
  business_id: user.business_id, owner_type: 'item_receipt', owner_id: receiptId,
});

export async function uploadReceiptDocument(
  tx: Queryable, user: ActingUser, receiptId: string, contentType: string, bytes: Uint8Array, now: Date,
): Promise<ProcurementDocument> {
  return writeMirrored(tx, user.business_id, 1, async () => {
    const { po } = await findReceiptAndPo(tx, user, receiptId, true);
    const doc = await storeDocument(tx, { ...ownerOf(user, receiptId), bytes, content_type: contentType, uploaded_by: user.id, at: now.toISOString() });
    await tx.query(
      'UPDATE item_receipts SET document_ids = document_ids || $3::uuid WHERE business_id = $1 AND id = $2',
      [user.business_id, receiptId, doc.id],
    );
    await afterPurchaseOrderChange(tx, user.business_id, po.id);
    return doc;
  });
}

export async function readReceiptDocument(db: Queryable, user: ActingUser, receiptId: string, documentId: string) {
  await findReceiptAndPo(db, user, receiptId);
  const doc = await readDocument(db, ownerOf(user, receiptId), documentId);
  if (!doc) throw new ApiError('REQUEST_7004', 'This document was not found.');
  return doc;
}

export async function deleteReceiptDocument(
  tx: Queryable, user: ActingUser, receiptId: string, documentId: string,
): Promise<{ purchase_order: PurchaseOrder; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 1, async () => {
    const { po } = await findReceiptAndPo(tx, user, receiptId, true);
    if (!(await deleteDocument(tx, ownerOf(user, receiptId), documentId))) throw new ApiError('REQUEST_7004', 'This document was not found.');
    await tx.query(
      'UPDATE item_receipts SET document_ids = array_remove(document_ids, $3::uuid) WHERE business_id = $1 AND id = $2',
      [user.business_id, receiptId, documentId],
    );
    const changeSeq = await afterPurchaseOrderChange(tx, user.business_id, po.id);
    return { purchase_order: await findPurchaseOrder(tx, user, po.id), change_seq: changeSeq };
  });
}
