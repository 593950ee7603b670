import { createHash, randomUUID } from 'node:crypto';
import type { Receipt, ReceiptContentType } from '../../schema/api/calls-receipts.ts';
import { checkFileContent } from '../../schema/file-content.ts';
import { isAdmin } from '../../schema/roles.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { writeMirrored } from './collections.ts';
import { findTransaction, touchTransactions } from './transaction-sql.ts';
import type { Visibility } from './visibility.ts';
import { runWorkflows } from './workflows/engine.ts';

/**
 * Receipts (issue 9 §2): files kept as bytea, one row per (business, uploader, sha256) since
 * issue 24 (migration 032): uploading bytes one already uploaded answers that receipt; the same
 * bytes from someone else are their own receipt. Readers follow `receipt_uploads` (one row per
 * receipt now; several on receipts shared before 032, each uploader keeps reading them) under the
 * `owner` rule. Content is checked by schema/file-content.ts (markup refused, magic numbers
 * against the declared type). Receipts are not mirrored, but a transaction's wire doc carries its
 * `receipt_ids`: attaching, detaching and deleting stamp the transactions they change with a
 * change seq (`touchTransactions`), so the feed brings them.
 */

const COLUMNS = `r.id, r.content_type, r.size, r.sha256, r.created_at`;
type Row = { id: string; content_type: ReceiptContentType; size: number; sha256: string; created_at: Date | string };
const toWire = (r: Row): Receipt => ({
  id: r.id, content_type: r.content_type, size: Number(r.size), sha256: r.sha256,
  created_at: r.created_at instanceof Date ? r.created_at.toISOString() : new Date(r.created_at).toISOString(),
});

/**
 * Receipts of alias `r` that `vis` sees: one of its uploaders is a visible user, or it is on a
 * live claim of a visible user (so the claimant's manager, who reviews the claim, reads its
 * receipts whoever uploaded them). Business-wide roles (admins, bookkeepers, auditors) see all.
 * `invoiceApprover` (the reads only, never a write): also the invoice of a live bill whose
 * approval chain names that user (`billApproverInvoice`).
 */
function visibleReceipts(vis: Visibility, params: unknown[], invoiceApprover?: string): string {
  if (vis.all) return '';
  const users = `$${params.push(vis.userIds)}::uuid[]`;
  const approver = invoiceApprover ? `\n    OR ${billApproverInvoice(`$${params.push(invoiceApprover)}`)}` : '';
  return ` AND (EXISTS (SELECT 1 FROM receipt_uploads u WHERE u.receipt_id = r.id AND u.user_id = ANY(${users}))
    OR EXISTS (SELECT 1 FROM reimbursements rb WHERE rb.business_id = r.business_id AND rb.receipt_ids @> ARRAY[r.id]
                  AND NOT rb.deleted AND rb.user_id = ANY(${users}))${approver})`;
}

/**
 * Receipt `r` is the invoice document of a live bill of its business whose approval chain names
 * user `userParam` on any step (as resolved at submission), pending or decided, in any of the
 * bill's instances: whoever is asked to approve a bill may open its invoice from their inbox,
 * though they may not manage bill pay nor see the uploader's receipts.
 */
function billApproverInvoice(userParam: string): string {
  return `EXISTS (SELECT 1 FROM bills b JOIN approval_instances ai ON ai.business_id = b.business_id AND ai.object_type = 'bill' AND ai.object_id = b.id
              WHERE b.business_id = r.business_id AND b.invoice_file_id = r.id AND NOT b.deleted
                AND EXISTS (SELECT 1 FROM jsonb_array_elements(ai.steps) st WHERE (st -> 'approver_ids') @> jsonb_build_array(${userParam}::text)))`;
}

/**
 * A claim's receipts must be live receipts of the business that the caller may see; any other id
 * (unknown, deleted, another business's, someone else's) → 404 naming it, nothing written.
 */
export async function checkClaimReceipts(db: Queryable, businessId: string, vis: Visibility, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const params: unknown[] = [businessId, [...ids]];
  const rows = await db.query<{ id: string }>(
    `SELECT r.id::text AS id FROM receipts r WHERE r.business_id = $1 AND r.id = ANY($2::uuid[]) AND NOT r.deleted${visibleReceipts(vis, params)}
      FOR SHARE OF r`,
    params,
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ApiError('REQUEST_7004', `The receipt ${missing} was not found.`);
}

/**
 * An invoice document named on a bill or a provisional bill: a receipt-store file of the business
 * the user may read (their upload, or one shared with them), else 404 naming the invoice file.
 */
export async function assertInvoiceFile(db: Queryable, user: ActingUser, vis: Visibility, fileId: string): Promise<void> {
  try {
    await checkClaimReceipts(db, user.business_id, vis, [fileId]);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'REQUEST_7004') throw new ApiError('REQUEST_7004', 'This invoice file was not found.');
    throw err;
  }
}

/**
 * Stores an upload, or finds the uploader's own receipt with the same bytes (issue 24 item 7:
 * dedupe never crosses uploaders, so the answer to the same bytes a colleague holds is a new
 * receipt, with its own id and time, exactly as a first upload; nobody learns the other exists).
 * Race-safe: concurrent uploads of the same bytes by one person meet on the (business_id,
 * user_id, sha256) unique index; the loser's INSERT waits for the winner's commit and then reads
 * its row. A deleted receipt of the same uploader comes back to life (same id) with the upload.
 */
export async function storeReceipt(db: Queryable, user: ActingUser, declared: string, bytes: Uint8Array, now: Date): Promise<Receipt> {
  const content = checkFileContent(declared, bytes);
  if (!content.ok) throw new ApiError(content.code, content.message);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db.query(
    `INSERT INTO receipts AS r (id, business_id, user_id, content_type, size, sha256, bytes, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (business_id, user_id, sha256) DO UPDATE
       SET deleted = false, bytes = EXCLUDED.bytes, content_type = EXCLUDED.content_type,
           size = EXCLUDED.size, created_at = EXCLUDED.created_at
     WHERE r.deleted`,
    [randomUUID(), user.business_id, user.id, content.contentType, bytes.length, sha256, bytes, now.toISOString()],
  );
  const [row] = await db.query<Row>(
    `SELECT ${COLUMNS} FROM receipts r WHERE r.business_id = $1 AND r.user_id = $2 AND r.sha256 = $3`,
    [user.business_id, user.id, sha256],
  );
  if (!row) throw new Error('receipt vanished after its upsert');
  await db.query(
    `INSERT INTO receipt_uploads (receipt_id, business_id, user_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (receipt_id, user_id) DO NOTHING`,
    [row.id, user.business_id, user.id, now.toISOString()],
  );
  await runWorkflows(db, user.business_id, { trigger: 'receipt.uploaded', objectId: row.id });
  return toWire(row);
}

/**
 * A live receipt the viewer may see (`lock`: FOR SHARE / FOR UPDATE of its row), or null.
 * `invoiceApprover`, for a read only: the user id whose bill approvals open invoices too.
 */
export async function findReceipt(
  db: Queryable, businessId: string, vis: Visibility, id: string, lock?: 'share' | 'update', invoiceApprover?: string,
): Promise<Receipt | null> {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<Row>(
    `SELECT ${COLUMNS} FROM receipts r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleReceipts(vis, params, invoiceApprover)}` +
      (lock ? ` FOR ${lock === 'share' ? 'SHARE' : 'UPDATE'} OF r` : ''),
    params,
  );
  return rows[0] ? toWire(rows[0]) : null;
}

/** The file of a visible live receipt (or the invoice of a bill `invoiceApprover` is an approver of), or null. */
export async function readReceiptFile(db: Queryable, businessId: string, vis: Visibility, id: string, invoiceApprover?: string) {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<Row & { bytes: Uint8Array }>(
    `SELECT ${COLUMNS}, r.bytes FROM receipts r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleReceipts(vis, params, invoiceApprover)}`,
    params,
  );
  const row = rows[0];
  return row ? { ...toWire(row), bytes: row.bytes } : null;
}

/** Deletes a receipt (one of its uploaders or an admin): detached everywhere, its bytes dropped. */
export async function deleteReceipt(tx: Queryable, user: ActingUser, vis: Visibility, id: string) {
  const receipt = await findReceipt(tx, user.business_id, vis, id, 'update');
  if (!receipt) throw new ApiError('REQUEST_7004');
  const uploaded = await tx.query('SELECT 1 FROM receipt_uploads WHERE receipt_id = $1 AND user_id = $2', [id, user.id]);
  if (uploaded.length === 0 && !isAdmin(user)) {
    throw new ApiError('FORBIDDEN_7003', 'Only the person who uploaded a receipt, or an admin, can delete it.');
  }
  const detached = await tx.query<{ transaction_id: string }>('DELETE FROM transaction_receipts WHERE receipt_id = $1 RETURNING transaction_id', [id]);
  await touchTransactions(tx, user.business_id, detached.map((r) => r.transaction_id));
  await removeFromClaims(tx, user.business_id, id);
  await tx.query('DELETE FROM receipt_uploads WHERE receipt_id = $1', [id]);
  await tx.query('UPDATE receipts SET deleted = true, bytes = NULL WHERE id = $1', [id]);
  return { id, deleted: true as const };
}

/**
 * Issue 25: the caller gives up a receipt they uploaded from a form they cancelled. Deleted as
 * `deleteReceipt` does only while nothing uses it: no transaction, no claim (even a deleted one
 * keeps its history), no bill or provisional bill's invoice; otherwise kept (`discarded: false`),
 * since the server stores the same bytes once per uploader and a saved claim may hold them.
 * Someone else's receipt is never discarded (kept, even for an admin).
 */
export async function discardReceipt(tx: Queryable, user: ActingUser, vis: Visibility, id: string) {
  const receipt = await findReceipt(tx, user.business_id, vis, id, 'update');
  if (!receipt) throw new ApiError('REQUEST_7004');
  const kept = { id, discarded: false as boolean };
  const uploaded = await tx.query('SELECT 1 FROM receipt_uploads WHERE receipt_id = $1 AND user_id = $2', [id, user.id]);
  if (uploaded.length === 0) return kept;
  const used = await tx.query(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM transaction_receipts WHERE receipt_id = $2)
        OR EXISTS (SELECT 1 FROM reimbursements WHERE business_id = $1 AND receipt_ids @> ARRAY[$2::uuid])
        OR EXISTS (SELECT 1 FROM bills WHERE business_id = $1 AND invoice_file_id = $2)
        OR EXISTS (SELECT 1 FROM provisional_bills WHERE business_id = $1 AND invoice_file_id = $2)`,
    [user.business_id, id],
  );
  if (used.length > 0) return kept;
  await tx.query('DELETE FROM receipt_uploads WHERE receipt_id = $1', [id]);
  await tx.query('UPDATE receipts SET deleted = true, bytes = NULL WHERE id = $1', [id]);
  return { id, discarded: true };
}

/** Takes a deleted receipt off every claim it was on, each claim with a new change seq. */
async function removeFromClaims(tx: Queryable, businessId: string, receiptId: string): Promise<void> {
  // Counted unlocked, changed under the business row's lock (every writer takes it first); the
  // receipt's own row lock (FOR UPDATE, held by the caller) keeps claims from gaining it meanwhile.
  const claims = await tx.query<{ id: string }>(
    'SELECT id::text AS id FROM reimbursements WHERE business_id = $1 AND receipt_ids @> ARRAY[$2::uuid] ORDER BY id',
    [businessId, receiptId],
  );
  if (claims.length === 0) return;
  await writeMirrored(tx, businessId, claims.length, async ({ seqs }) => {
    await tx.query(
      `UPDATE reimbursements r SET receipt_ids = array_remove(r.receipt_ids, $3::uuid), change_seq = $4 + src.ord - 1, updated_at = now()
         FROM unnest($2::uuid[]) WITH ORDINALITY AS src(id, ord)
        WHERE r.business_id = $1 AND r.id = src.id AND r.receipt_ids @> ARRAY[$3::uuid]`,
      [businessId, claims.map((c) => c.id), receiptId, seqs.first],
    );
  });
}

/** The receipts of a transaction that the viewer may see, oldest attachment first. */
async function transactionReceipts(db: Queryable, businessId: string, vis: Visibility, transactionId: string) {
  const params: unknown[] = [businessId, transactionId];
  const rows = await db.query<{ id: string }>(
    `SELECT r.id FROM transaction_receipts tr JOIN receipts r ON r.id = tr.receipt_id
      WHERE tr.business_id = $1 AND tr.transaction_id = $2 AND NOT r.deleted${visibleReceipts(vis, params)}
      ORDER BY tr.created_at, r.id`,
    params,
  );
  const [txn] = await db.query<{ change_seq: number }>('SELECT change_seq FROM transactions WHERE id = $1', [transactionId]);
  return { transaction_id: transactionId, receipt_ids: rows.map((r) => r.id), change_seq: Number(txn?.change_seq ?? 0) };
}

async function visibleTransaction(db: Queryable, businessId: string, vis: Visibility, id: string): Promise<void> {
  if (!(await findTransaction(db, businessId, vis, id))) throw new ApiError('REQUEST_7004');
}

/** Attaches a receipt to a transaction, both visible to the caller; a repeat changes nothing. */
export async function attachReceipt(tx: Queryable, user: ActingUser, vis: Visibility, transactionId: string, receiptId: string, now: Date) {
  await visibleTransaction(tx, user.business_id, vis, transactionId);
  // FOR SHARE: a concurrent delete waits for this attachment and then removes it too.
  if (!(await findReceipt(tx, user.business_id, vis, receiptId, 'share'))) {
    throw new ApiError('REQUEST_7004', 'The receipt was not found.');
  }
  const inserted = await tx.query(
    `INSERT INTO transaction_receipts (transaction_id, receipt_id, business_id, attached_by, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (transaction_id, receipt_id) DO NOTHING RETURNING 1`,
    [transactionId, receiptId, user.business_id, user.id, now.toISOString()],
  );
  if (inserted.length > 0) await touchTransactions(tx, user.business_id, [transactionId]);
  return transactionReceipts(tx, user.business_id, vis, transactionId);
}

/** Detaches a receipt from a transaction (both visible); detaching one not attached changes nothing. */
export async function detachReceipt(tx: Queryable, user: ActingUser, vis: Visibility, transactionId: string, receiptId: string) {
  await visibleTransaction(tx, user.business_id, vis, transactionId);
  if (!(await findReceipt(tx, user.business_id, vis, receiptId))) throw new ApiError('REQUEST_7004', 'The receipt was not found.');
  const removed = await tx.query('DELETE FROM transaction_receipts WHERE business_id = $1 AND transaction_id = $2 AND receipt_id = $3 RETURNING 1', [
    user.business_id, transactionId, receiptId,
  ]);
  if (removed.length > 0) await touchTransactions(tx, user.business_id, [transactionId]);
  return transactionReceipts(tx, user.business_id, vis, transactionId);
}
