import { randomUUID } from 'node:crypto';
import type { ProvisionalBill, ProvisionalBillCreate, ProvisionalBillPatch } from '../../schema/entities/provisional-bill.ts';
import { validateProvisionalBill } from '../../schema/bill-rules.ts';
import type { ActingUser } from '../core/actor.ts';
import { validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { assertMayManageBills } from './bills.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { assertInvoiceFile } from './receipts.ts';
import { findVendor } from './vendors.ts';
import { visibilityOf } from './visibility.ts';
import { createdBefore, findLiveDoc } from './live-doc.ts';

/**
 * Provisional bills (issue 11 §7): uploaded invoices not yet completed into bills, every field
 * but the file optional. Bill managers only (403 before any lookup, as bills); another business's
 * row, file or vendor is 404. Every write goes through writeMirrored, so the bill inbox mirrors
 * to every bill manager; deleting leaves a tombstone.
 */
const DOC = COLLECTIONS.provisional_bills.docSql;
const NOT_FOUND = 'This provisional bill was not found.';

async function findProvisionalBill(db: Queryable, businessId: string, id: string, lock = false): Promise<ProvisionalBill> {
  return findLiveDoc<ProvisionalBill>(db, { table: 'provisional_bills', doc: DOC, notFound: NOT_FOUND }, businessId, id, lock);
}

/** The known fields (schema/bill-rules.ts validateProvisionalBill), and a vendor named must be the business's. */
async function checkRefs(tx: Queryable, businessId: string, row: Pick<ProvisionalBill, 'vendor_id' | 'amount' | 'currency' | 'invoice_date' | 'due_date'>) {
  const errors = validateProvisionalBill(row);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (row.vendor_id) await findVendor(tx, businessId, row.vendor_id);
}


/**
 * A client id the caller already created under answers that row (offline creates, as bills do:
 * the route answers it instead of creating); an id used by anything else is a 422 on `id`.
 */
export async function provisionalBillCreatedBefore(db: Queryable, user: ActingUser, id: string): Promise<ProvisionalBill | null> {
  assertMayManageBills(user);
  return createdBefore(db, user, id, { table: 'provisional_bills', noun: 'provisional bill' }, () => findProvisionalBill(db, user.business_id, id));
}

export async function createProvisionalBill(tx: Queryable, user: ActingUser, body: ProvisionalBillCreate, now: Date): Promise<ProvisionalBill> {
  assertMayManageBills(user);
  const row = {
    vendor_id: body.vendor_id ?? null, invoice_number: body.invoice_number || null, invoice_date: body.invoice_date ?? null,
    due_date: body.due_date ?? null, currency: body.currency ?? null, amount: body.amount ?? null, memo: body.memo ?? null,
  };
  await assertInvoiceFile(tx, user, await visibilityOf(tx, user), body.invoice_file_id);
  await checkRefs(tx, user.business_id, row);
  const id = body.id ?? randomUUID();
  const at = now.toISOString();
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await tx.query(
      `INSERT INTO provisional_bills (id, business_id, invoice_file_id, vendor_id, invoice_number, invoice_date, due_date, currency, amount,
                                      memo, created_by, change_seq, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
      [id, user.business_id, body.invoice_file_id, row.vendor_id, row.invoice_number, row.invoice_date, row.due_date, row.currency,
        row.amount, row.memo, user.id, seqs.last, at],
    );
    return findProvisionalBill(tx, user.business_id, id);
  });
}

const PATCHABLE = ['vendor_id', 'invoice_number', 'invoice_date', 'due_date', 'currency', 'amount', 'memo'] as const;

export async function updateProvisionalBill(
  tx: Queryable, user: ActingUser, id: string, patch: ProvisionalBillPatch, now: Date,
): Promise<ProvisionalBill> {
  assertMayManageBills(user);
  const current = await findProvisionalBill(tx, user.business_id, id, true);
  const next = { ...current };
  for (const key of PATCHABLE) {
    const value = patch[key];
    if (value === undefined) continue;
    (next as Record<string, unknown>)[key] = key === 'invoice_number' && value === '' ? null : value;
  }
  await checkRefs(tx, user.business_id, next);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    await tx.query(
      `UPDATE provisional_bills SET vendor_id = $3, invoice_number = $4, invoice_date = $5, due_date = $6, currency = $7, amount = $8,
              memo = $9, change_seq = $10, updated_at = $11
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, next.vendor_id, next.invoice_number, next.invoice_date, next.due_date, next.currency, next.amount, next.memo,
        seqs.last, now.toISOString()],
    );
    return findProvisionalBill(tx, user.business_id, id);
  });
}

/** One (a tombstone, answered with its seq) — its invoice file stays in the receipt store. */
export async function deleteProvisionalBill(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<ProvisionalBill> {
  assertMayManageBills(user);
  const row = await findProvisionalBill(tx, user.business_id, id, true);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const at = now.toISOString();
    await tx.query('UPDATE provisional_bills SET deleted = true, change_seq = $3, updated_at = $4 WHERE business_id = $1 AND id = $2',
      [user.business_id, id, seqs.last, at]);
    return { ...row, deleted: true, change_seq: seqs.last, updated_at: at };
  });
}

/** "Delete all": every live provisional bill of the business, each with its own seq. Answers how many. */
export async function deleteAllProvisionalBills(tx: Queryable, user: ActingUser, now: Date): Promise<{ deleted: number }> {
  assertMayManageBills(user);
  const ids = await tx.query<{ id: string }>(
    'SELECT id::text FROM provisional_bills WHERE business_id = $1 AND NOT deleted ORDER BY created_at, id FOR UPDATE',
    [user.business_id],
  );
  if (ids.length === 0) return { deleted: 0 };
  return writeMirrored(tx, user.business_id, ids.length, async ({ seqs }) => {
    await tx.query(
      `UPDATE provisional_bills p SET deleted = true, change_seq = $3 + src.ord - 1, updated_at = $4
         FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord)
        WHERE p.business_id = $1 AND p.id = src.id`,
      [user.business_id, ids.map((r) => r.id), seqs.first, now.toISOString()],
    );
    return { deleted: ids.length };
  });
}

/** Newest first (a business keeps a handful waiting: no paging). */
export async function listProvisionalBills(db: Queryable, user: ActingUser): Promise<{ data: ProvisionalBill[] }> {
  assertMayManageBills(user);
  const rows = await db.query<{ doc: ProvisionalBill }>(
    `SELECT ${DOC} AS doc FROM provisional_bills r WHERE r.business_id = $1 AND NOT r.deleted ORDER BY r.created_at DESC, r.id DESC`,
    [user.business_id],
  );
  return { data: rows.map((r) => r.doc) };
}
