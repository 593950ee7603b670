import { randomUUID } from 'node:crypto';
import type { BillCreate, BillLineInput, BillPatch, Bill } from '../../schema/entities/bill.ts';
import { syncedBillRefusal } from '../../schema/commands/bill.ts';
import {
  billPatchActions, billTotal, checkBillPatch, createdStatus, findDuplicateInvoices, invoiceNumberKey, mayManageBills, validateBill,
} from '../../schema/bill-rules.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { openApproval } from './approval-rows.ts';
import { checkDuplicateInvoice, type DuplicateMark } from './bill-duplicates.ts';
import { checkCodingRefs } from './coding.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { newestFirstPage, type Page, type PageRequest } from './newest-first-page.ts';
import { assertCreditLines } from './vendor-credits.ts';
import { findVendor } from './vendors.ts';
import { assertInvoiceFile } from './receipts.ts';
import { visibilityOf } from './visibility.ts';
import { findLiveDoc } from './live-doc.ts';
import { billPoLineErrors, type PoLineFields } from '../../schema/bill-match.ts';
import { afterBillWrite, assertBillPurchaseOrder } from './procurement/bill-match-store.ts';
import { runWorkflows } from './workflows/engine.ts';

/**
 * Bills (issue 11 §7 bill pay) in storage; the rules are schema/bill-rules.ts. Every write goes
 * through writeMirrored (a change seq per bill, announced on commit) so the mirror can follow
 * bills once the collection is registered. Only bill managers reach any of this (403 first);
 * another business's bill or vendor is 404. Payments are in domain/bill-payments.ts.
 */

/** The wire shape of a bill (schema/entities/bill.ts), built in SQL; reads alias `r`. The change feed's (collections.ts). */
export const BILL_DOC = COLLECTIONS.bills.docSql;

/** §6 "manage bill pay accounting" (mayManageBills), checked before any lookup. */
export function assertMayManageBills(user: ActingUser): void {
  if (!mayManageBills(user)) {
    throw new ApiError('FORBIDDEN_7003', 'Only administrators, bookkeepers and AP clerks can manage bills.');
  }
}

/** A live bill of the business (locked for a write); anything else is 404. */
export async function findBill(db: Queryable, businessId: string, id: string, lock = false): Promise<Bill> {
  return findLiveDoc<Bill>(db, { table: 'bills', doc: BILL_DOC, notFound: 'This bill was not found.' }, businessId, id, lock);
}

/**
 * Submission (issue 11): the bill's chain from the business's current bill policy and its first
 * step's PENDING approval (`seq`: the approval's), as a claim's submission does. The submitter is
 * the requester, so nobody approves a bill they submitted.
 */
export async function openBillApproval(
  tx: Queryable, user: ActingUser, bill: Pick<Bill, 'id' | 'amount' | 'currency' | 'vendor_id' | 'entity_id'>, seq: number, at: string,
) {
  return openApproval(tx, {
    id: bill.id, business_id: user.business_id, user_id: user.id, updated_at: at, amount: bill.amount, currency: bill.currency,
    vendor_id: bill.vendor_id, entity_id: bill.entity_id,
  }, seq, 'bill');
}

/**
 * validateBill's field messages as one 422, so a form can show each next to its field, with the
 * three-way match's line rules (issue 28: a PO line's quantity and unit price, amount their product).
 */
function assertValid(fields: Parameters<typeof validateBill>[0] & { line_items: readonly PoLineFields[] }): void {
  const errors = { ...validateBill(fields), ...billPoLineErrors(fields.line_items, fields.currency) };
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** Each line's GL account and department must be the business's own (named by the line's field). */
export async function assertLineCoding(tx: Queryable, businessId: string, lines: readonly BillLineInput[]): Promise<void> {
  for (const [i, line] of lines.entries()) {
    const tracking = line.tracking ?? {};
    if (!line.gl_account_id && !line.department_id && !line.location_id && Object.keys(tracking).length === 0) continue;
    try {
      await checkCodingRefs(tx, businessId, {
        gl_account_id: line.gl_account_id ?? null, department_id: line.department_id ?? null, location_id: line.location_id ?? null, tracking,
      });
    } catch (err) {
      if (!(err instanceof ApiError) || !err.errors) throw err;
      throw validationError(Object.fromEntries(Object.entries(err.errors).map(([k, m]) => [`line_items.${i}.${k}`, m])));
    }
  }
}

async function insertLines(tx: Queryable, billId: string, lines: readonly BillLineInput[]): Promise<void> {
  for (const [i, line] of lines.entries()) {
    await tx.query(
      `INSERT INTO bill_line_items (id, bill_id, position, description, amount, gl_account_id, department_id, location_id, tracking,
                                    vendor_credit_id, po_line_id, quantity, unit_price)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [randomUUID(), billId, i, line.description, line.amount, line.gl_account_id ?? null, line.department_id ?? null,
        line.location_id ?? null, JSON.stringify(line.tracking ?? {}),
        line.vendor_credit_id ?? null, line.po_line_id ?? null, line.quantity ?? null, line.unit_price ?? null],
    );
  }
}

/**
 * The provisional bill a create completes (§7 bill inbox): the business's live one, locked until
 * the create commits; anything else (another business's, already completed or deleted) is 404.
 */
async function provisionalToComplete(tx: Queryable, businessId: string, id: string): Promise<{ invoice_file_id: string }> {
  const [row] = await tx.query<{ invoice_file_id: string }>(
    'SELECT invoice_file_id::text FROM provisional_bills WHERE business_id = $1 AND id = $2 AND NOT deleted FOR UPDATE',
    [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This provisional bill was not found.');
  return row;
}

/**
 * `entity_id` is not a create field on the wire (a PATCH sets it); recurring templates
 * (domain/recurring-bills.ts) pass their entity so the chain opens with it. `provisional_bill_id`
 * completes that provisional bill in the same write: the bill takes its invoice file and the
 * provisional row becomes a tombstone whose change seq comes just before the bill's (a client
 * holding the bill's answer knows the feed has the tombstone once it reaches the bill's seq).
 */
export async function createBill(
  tx: Queryable, user: ActingUser, body: BillCreate & { entity_id?: string | null }, now: Date,
): Promise<Bill> {
  assertValid(body);
  const businessId = user.business_id;
  const provisionalId = body.provisional_bill_id;
  return writeMirrored(tx, businessId, provisionalId ? 2 : 1, async (w) => {
    const { seqs } = w;
    const provisional = provisionalId ? await provisionalToComplete(tx, businessId, provisionalId) : null;
    await findVendor(tx, businessId, body.vendor_id);
    await assertLineCoding(tx, businessId, body.line_items);
    const entityId = body.entity_id ?? null;
    if (entityId) await assertEntity(tx, businessId, entityId);
    const id = body.id ?? randomUUID();
    await assertCreditLines(tx, businessId, id, body);
    const purchaseOrderId = body.purchase_order_id ?? null;
    await assertBillPurchaseOrder(tx, businessId, { vendor_id: body.vendor_id, purchase_order_id: purchaseOrderId, line_items: body.line_items });
    const status = createdStatus(body.submit);
    const amount = billTotal(body.line_items);
    const at = now.toISOString();
    // Issue 25: every create (the call, a completed inbox invoice, a recurring period) is checked.
    const mark = await checkDuplicateInvoice(tx, user, { id, vendor_id: body.vendor_id, invoice_number: body.invoice_number },
      body.confirm_duplicate === true, at);
    await tx.query(
      `INSERT INTO bills (id, business_id, vendor_id, invoice_number, invoice_key, invoice_date, due_date, currency, amount,
                          status, memo, created_by, submitted_at, change_seq, created_at, updated_at, entity_id, invoice_file_id,
                          duplicate_of, duplicate_confirmed_by, duplicate_confirmed_at, purchase_order_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15, $16, $17, $18, $19, $20, $21)`,
      [id, businessId, body.vendor_id, body.invoice_number, invoiceNumberKey(body.invoice_number), body.invoice_date, body.due_date,
        body.currency, amount, status, body.memo ?? null, user.id, body.submit ? at : null, seqs.last, at, entityId,
        provisional?.invoice_file_id ?? null, mark?.duplicate_of ?? null, mark?.confirmed_by ?? null, mark?.confirmed_at ?? null,
        purchaseOrderId],
    );
    await insertLines(tx, id, body.line_items);
    // Issue 28: the bill's match (and its PO's other bills', which share the PO's units) stored now.
    await afterBillWrite(tx, businessId, [purchaseOrderId], now);
    if (provisionalId) {
      await tx.query('UPDATE provisional_bills SET deleted = true, change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
        [businessId, provisionalId, seqs.first, at]);
    }
    // The bill stays PENDING_APPROVAL whatever the chain says: its approvals move it (bill-approvals.ts).
    if (body.submit) {
      const bill = { id, amount, currency: body.currency, vendor_id: body.vendor_id, entity_id: entityId };
      await openBillApproval(tx, user, bill, (await w.reserve(1)).last, at);
    }
    await runWorkflows(tx, businessId, { trigger: 'bill.created', objectId: id });
    return findBill(tx, businessId, id);
  });
}

/**
 * Issue 12: an action that changes what a sync commit exported of the bill is refused
 * (ACCOUNTING_7301) until it is marked not synced; which actions, and why, is
 * SYNC_LOCKED_BILL_ACTIONS (schema/commands/bill.ts). Checked before the status's own rules, so
 * a synced bill's refusal says how to unlock it.
 */
export function assertNotSynced(bill: Pick<Bill, 'accounting_synced_at'>, actions: Parameters<typeof syncedBillRefusal>[1]): void {
  const refusal = syncedBillRefusal(bill.accounting_synced_at, actions);
  if (refusal) throw new ApiError('ACCOUNTING_7301', refusal);
}

/** The bill after `patch`, as validateBill reads it (new lines replace all; the total follows them). */
function patched(bill: Bill, patch: BillPatch) {
  return {
    ...bill, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    line_items: patch.line_items ?? bill.line_items,
  } as Bill & { line_items: readonly BillLineInput[]; purchase_order_id: string | null };
}

export async function updateBill(tx: Queryable, user: ActingUser, id: string, patch: BillPatch, now: Date): Promise<Bill> {
  const businessId = user.business_id;
  return writeMirrored(tx, businessId, 1, async (w) => {
    const { seqs } = w;
    const bill = await findBill(tx, businessId, id, true);
    assertNotSynced(bill, billPatchActions(patch));
    refuse(checkBillPatch(patch, bill.status));
    const next = patched(bill, patch);
    assertValid({ ...next, amount: undefined });
    if (patch.vendor_id !== undefined) await findVendor(tx, businessId, patch.vendor_id);
    if (patch.line_items) await assertLineCoding(tx, businessId, patch.line_items);
    // Credit lines follow the bill's vendor and currency: a change of either rechecks them.
    if (patch.line_items || patch.vendor_id !== undefined || patch.currency !== undefined) await assertCreditLines(tx, businessId, id, next);
    if (patch.entity_id) await assertEntity(tx, businessId, patch.entity_id);
    if (patch.invoice_file_id) await assertInvoiceFile(tx, user, await visibilityOf(tx, user), patch.invoice_file_id);
    // Issue 28: the PO (kept, named or changed) is rechecked whenever the vendor, the PO or the lines change.
    const poChanged = patch.purchase_order_id !== undefined || patch.line_items !== undefined || patch.vendor_id !== undefined;
    if (poChanged) await assertBillPurchaseOrder(tx, businessId, next);
    const mark = await duplicateMarkAfter(tx, user, bill, next, patch, now);
    await tx.query(
      `UPDATE bills SET vendor_id = $3, invoice_number = $4, invoice_key = $5, invoice_date = $6, due_date = $7, currency = $8,
              amount = $9, memo = $10, entity_id = $11, invoice_file_id = $12, change_seq = $13, updated_at = $14
        WHERE business_id = $1 AND id = $2`,
      [businessId, id, next.vendor_id, next.invoice_number, invoiceNumberKey(next.invoice_number), next.invoice_date, next.due_date,
        next.currency, billTotal(next.line_items), next.memo, next.entity_id, next.invoice_file_id, seqs.last, now.toISOString()],
    );
    if (mark !== 'unchanged') {
      await tx.query(
        'UPDATE bills SET duplicate_of = $3, duplicate_confirmed_by = $4, duplicate_confirmed_at = $5 WHERE business_id = $1 AND id = $2',
        [businessId, id, mark?.duplicate_of ?? null, mark?.confirmed_by ?? null, mark?.confirmed_at ?? null],
      );
    }
    if (patch.line_items) {
      await tx.query('DELETE FROM bill_line_items WHERE bill_id = $1', [id]);
      await insertLines(tx, id, patch.line_items);
    }
    if (patch.purchase_order_id !== undefined) {
      // A bill naming no PO has no match; one naming another PO is matched against it below.
      await tx.query(
        'UPDATE bills SET purchase_order_id = $3, po_match = CASE WHEN $3::uuid IS NULL THEN NULL ELSE po_match END WHERE business_id = $1 AND id = $2',
        [businessId, id, next.purchase_order_id],
      );
    }
    if (poChanged) await afterBillWrite(tx, businessId, [bill.purchase_order_id, next.purchase_order_id], now);
    if (patch.submit) {
      // Submitted (a draft) or resubmitted (a rejected bill): a new chain under today's policy.
      const at = now.toISOString();
      await tx.query(
        `UPDATE bills SET status = 'PENDING_APPROVAL', submitted_at = $3, rejection_reason = NULL WHERE business_id = $1 AND id = $2`,
        [businessId, id, at],
      );
      const payable = { id, amount: billTotal(next.line_items), currency: next.currency, vendor_id: next.vendor_id, entity_id: next.entity_id };
      await openBillApproval(tx, user, payable, (await w.reserve(1)).last, at);
    }
    return findBill(tx, businessId, id);
  });
}

/**
 * Issue 25, a patch: a new vendor or invoice number voids the bill's confirmation and is checked
 * again, and so is a submit (or a `confirm_duplicate` on its own) while the bill holds no
 * confirmation; a confirmation stands while the vendor and invoice key stay. Anything else
 * (a memo, a date) asks nothing. 'unchanged': keep the stored mark.
 */
async function duplicateMarkAfter(
  tx: Queryable, user: ActingUser, bill: Bill, next: Pick<Bill, 'id' | 'vendor_id' | 'invoice_number'>, patch: BillPatch, now: Date,
): Promise<DuplicateMark | 'unchanged'> {
  const moved = next.vendor_id !== bill.vendor_id || invoiceNumberKey(next.invoice_number) !== invoiceNumberKey(bill.invoice_number);
  const confirmed = Boolean(bill.duplicate_of?.confirmed_at);
  if (!moved && (confirmed || (!patch.submit && !patch.confirm_duplicate))) return 'unchanged';
  return checkDuplicateInvoice(tx, user, next, patch.confirm_duplicate === true, now.toISOString());
}

export async function assertEntity(tx: Queryable, businessId: string, entityId: string): Promise<void> {
  const rows = await tx.query('SELECT 1 FROM business_entities WHERE business_id = $1 AND id = $2 AND NOT deleted', [businessId, entityId]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004', 'This entity was not found.');
}

/** Drafts only: a bill anyone else has seen (approvers, the ledger) is canceled, which keeps its history. */
export async function deleteBill(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<Bill> {
  const businessId = user.business_id;
  return writeMirrored(tx, businessId, 1, async ({ seqs }) => {
    const bill = await findBill(tx, businessId, id, true);
    if (bill.status !== 'DRAFT') {
      throw new ApiError('REQUEST_7001', `This bill is not a draft (status ${bill.status}) and cannot be deleted; cancel it instead.`);
    }
    await tx.query('UPDATE bills SET deleted = true, change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
      [businessId, id, seqs.last, now.toISOString()]);
    // Its units no longer count against the PO: the PO's other bills may match now.
    await afterBillWrite(tx, businessId, [bill.purchase_order_id], now);
    return { ...bill, deleted: true, change_seq: seqs.last, updated_at: now.toISOString() };
  });
}

export type BillListFilter = { status?: Bill['status'] | undefined; vendor_id?: string | undefined };

/** Newest first, keyset-paged; filters by status and vendor. */
export async function listBills(db: Queryable, businessId: string, filter: BillListFilter, req: PageRequest): Promise<Page<Bill>> {
  const params: unknown[] = [businessId];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  if (filter.status) where += ` AND r.status = $${params.push(filter.status)}`;
  if (filter.vendor_id) where += ` AND r.vendor_id = $${params.push(filter.vendor_id)}`;
  return newestFirstPage<Bill>(db, { table: 'bills', doc: BILL_DOC, where, params }, req);
}

/**
 * The live bills `invoice_number` duplicates for the vendor: the vendor's bills (bills_invoice's
 * prefix), with findDuplicateInvoices applying the rule (canceled bills do not count) and the key
 * in TypeScript, as the create's check does (bill-duplicates.ts): the stored `invoice_key` of a
 * bill written before issue 25 holds the older, narrower key.
 */
export async function duplicateInvoices(db: Queryable, businessId: string, vendorId: string, invoiceNumber: string) {
  await findVendor(db, businessId, vendorId);
  const live = await db.query<Pick<Bill, 'id' | 'vendor_id' | 'invoice_number' | 'status'>>(
    `SELECT id::text, vendor_id::text, invoice_number, status FROM bills
      WHERE business_id = $1 AND vendor_id = $2 AND NOT deleted AND status <> 'CANCELED' ORDER BY created_at, id`,
    [businessId, vendorId],
  );
  const ids = findDuplicateInvoices({ vendor_id: vendorId, invoice_number: invoiceNumber }, live).map((b) => b.id);
  const rows = ids.length === 0 ? [] : await db.query<{ doc: Bill }>(
    `SELECT ${BILL_DOC} AS doc FROM bills r WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) ORDER BY r.created_at, r.id`,
    [businessId, ids],
  );
  const bills = rows.map((r) => r.doc);
  return { is_duplicate: bills.length > 0, bills };
}

/** Why a merge is refused while merged payees' bills are in the books (ACCOUNTING_7301's words for a merge). */
const syncedBillsMergeRefusal = (n: number) =>
  `${n === 1 ? 'A bill' : `${n} bills`} of the merged ${n === 1 ? 'vendor was' : 'vendors were'} exported to your accounting system. Mark ${n === 1 ? 'it' : 'them'} as not synced before merging, so your books and Ledgerline name the same vendor.`;

/**
 * A vendor merge moves the merged payees' bills to the survivor (vendor-bulk.ts), each stamped
 * with its own seq from `reserve` so the mirror sees the new vendor. Returns how many moved.
 * Refused (ACCOUNTING_7301, nothing moved: the merge's transaction rolls back) while any of them
 * is synced to accounting.
 */
export async function moveBillsToVendor(
  tx: Queryable, businessId: string, fromIds: readonly string[], toId: string, reserve: (rows: number) => Promise<{ first: number }>,
): Promise<number> {
  const ids = await tx.query<{ id: string }>(
    'SELECT id::text FROM bills WHERE business_id = $1 AND vendor_id = ANY($2::uuid[]) ORDER BY id FOR UPDATE',
    [businessId, [...fromIds]],
  );
  if (ids.length === 0) return 0;
  // A bill exported to accounting names its vendor in the books: moving it would make them disagree.
  const [synced] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM bills WHERE id = ANY($1::uuid[]) AND accounting_synced_at IS NOT NULL',
    [ids.map((r) => r.id)],
  );
  if (Number(synced?.n ?? 0) > 0) throw new ApiError('ACCOUNTING_7301', syncedBillsMergeRefusal(Number(synced!.n)));
  const seqs = await reserve(ids.length);
  await tx.query(
    `UPDATE bills b SET vendor_id = $2, change_seq = $3 + array_position($4::uuid[], b.id) - 1, updated_at = now()
      WHERE b.business_id = $1 AND b.id = ANY($4::uuid[])`,
    [businessId, toId, seqs.first, ids.map((r) => r.id)],
  );
  return ids.length;
}
