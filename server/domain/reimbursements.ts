import { z } from 'zod';
import type {
  DraftBody, MileageBody, OutOfPocketBody, PerDiemBody, ReimbursementPatch,
} from '../../schema/api/calls-reimbursements.ts';
import {
  applyStatus, claimErrors, draftPatch, foreignFields, reimbursementCreate, reimbursementCreateMileage, reimbursementCreatePerDiem,
  reimbursementSubmit, reimbursementUpdate, syncedClaimRefusal,
} from '../../schema/commands/reimbursement.ts';
import {
  reimbursementEntity, reimbursementSchema, type Reimbursement, type ReimbursementFilter, type ReimbursementType,
} from '../../schema/entities/reimbursement.ts';
import { checkAction, checkDeletable, checkEditable, type BusinessRates } from '../../schema/reimbursement-rules.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import type { ActingUser } from '../core/actor.ts';
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import { ApiError, refuse, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { cancelOpenApproval, openApproval } from './approval-rows.ts';
import { checkCodingRefs } from './coding.ts';
import { businessRates } from './reimbursement-rates.ts';
import { checkClaimReceipts } from './receipts.ts';
import { COLLECTIONS, writeMirrored } from './collections.ts';
import { escapeLike } from './transaction-sql.ts';
import { visibilityOf, visibleUsersClause, type Visibility } from './visibility.ts';
import { findVisibleDoc } from './live-doc.ts';
import { runWorkflows } from './workflows/engine.ts';


/**
 * Reimbursement writes and reads (issue 9 §3). Every write goes through writeMirrored (a change
 * seq per row, announced on commit), so the change feed carries it to whoever the `owner` rule
 * lets see it. The claim rules are the shared commands' (schema/commands/reimbursement.ts):
 * the server checks the input with `claimErrors` and then runs the same pure `apply`.
 * Only the claimant writes their claim; others who may see it (their managers, business-wide
 * roles) get 403, anyone else 404.
 */

const DOC = COLLECTIONS.reimbursements.docSql;

/** The columns a write sets, in order; values come from the row `apply` produced. */
const COLUMNS = [
  'type', 'status', 'merchant', 'amount', 'currency', 'transaction_date', 'memo', 'gl_account_id', 'department_id',
  'distance_miles', 'start_location', 'end_location', 'trip_date', 'location', 'start_date', 'end_date',
  'rejection_reason', 'receipt_ids', 'submitted_at', 'created_at', 'updated_at', 'change_seq',
] as const satisfies readonly (keyof Reimbursement)[];
const values = (r: Reimbursement) => COLUMNS.map((c) => r[c]);

/** One visible, live claim as its wire doc (FOR UPDATE inside writes), or null. */
export async function findReimbursement(
  db: Queryable, businessId: string, vis: Visibility, id: string, lock = false,
): Promise<Reimbursement | null> {
  return findVisibleDoc<Reimbursement>(db, { table: 'reimbursements', doc: DOC }, businessId, vis, id, lock);
}

export type ReimbursementPageRequest = { filter: ReimbursementFilter; pageSize: number; start?: string | undefined; includeCount: boolean };

const SORT = 'date_desc';
/** `q` matches the fields of the definition's `searchText`, as the worker's text index does. */
const SEARCH_COLUMNS = reimbursementEntity.searchText.map((f) => `r.${f}`).join(', ');
const cursorShape = z.tuple([z.iso.date(), z.string().min(1), z.uuid()]);

/** WHERE conditions (joined with AND) on claims `r` for a filter; values are pushed onto params (lists and reports). */
export function reimbursementFilterConditions(f: ReimbursementFilter, params: unknown[]): string[] {
  const conds: string[] = [];
  if (f.statuses?.length) conds.push(`r.status = ANY($${params.push(f.statuses)}::text[])`);
  if (f.types?.length) conds.push(`r.type = ANY($${params.push(f.types)}::text[])`);
  if (f.user_ids?.length) conds.push(`r.user_id = ANY($${params.push(f.user_ids)}::uuid[])`);
  for (const term of queryTerms(f.q)) {
    conds.push(`lower(concat_ws(' ', ${SEARCH_COLUMNS})) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  }
  return conds;
}

/** §7 keyset list, newest claim date first (then newest created, then id). */
export async function listReimbursements(db: Queryable, businessId: string, vis: Visibility, req: ReimbursementPageRequest) {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1', 'NOT r.deleted', ...reimbursementFilterConditions(req.filter, params)];
  const where = conds.join(' AND ') + visibleUsersClause(vis, 'r', params);
  const wantCount = req.includeCount || req.pageSize === 0;
  const total = wantCount
    ? Number((await db.query<{ n: number }>(`SELECT count(*) AS n FROM reimbursements r WHERE ${where}`, [...params]))[0]?.n ?? 0)
    : undefined;
  if (req.pageSize === 0) return { data: [], page: { next: null }, total_count: total };
  let pageWhere = where;
  if (req.start) {
    const [date, created, id] = decodeCursor(req.start, SORT, cursorShape) as [string, string, string];
    pageWhere += ` AND (r.transaction_date, r.created_at, r.id) < ($${params.push(date)}::date, $${params.push(created)}::timestamptz, $${params.push(id)}::uuid)`;
  }
  params.push(req.pageSize + 1);
  const rows = await db.query<{ doc: Reimbursement; k0: string; k1: string; k2: string }>(
    `SELECT ${DOC} AS doc, to_char(r.transaction_date, 'YYYY-MM-DD') AS k0,
            to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS k1, r.id::text AS k2
       FROM reimbursements r WHERE ${pageWhere}
      ORDER BY r.transaction_date DESC, r.created_at DESC, r.id DESC LIMIT $${params.length}`,
    params,
  );
  const more = rows.length > req.pageSize;
  const page = more ? rows.slice(0, req.pageSize) : rows;
  const last = page.at(-1);
  const next = more && last ? encodeCursor(SORT, [last.k0, last.k1, last.k2]) : null;
  return { data: page.map((r) => r.doc), page: { next }, ...(total === undefined ? {} : { total_count: total }) };
}

type CreateInput =
  | { type: 'OUT_OF_POCKET'; body: OutOfPocketBody }
  | { type: 'MILEAGE'; body: MileageBody }
  | { type: 'PER_DIEM'; body: PerDiemBody };

/** The shared command's apply for a create of each type, at the business's rates. */
function applyCreate(base: Reimbursement, input: CreateInput & { id: string }, rates: BusinessRates): Reimbursement {
  switch (input.type) {
    case 'OUT_OF_POCKET': return reimbursementCreate.apply(base, { ...input.body, id: input.id });
    case 'MILEAGE': return reimbursementCreateMileage.apply(base, { ...input.body, id: input.id, rates: [...rates] });
    case 'PER_DIEM': return reimbursementCreatePerDiem.apply(base, { ...input.body, id: input.id, rates: [...rates] });
  }
}

function skeleton(id: string, user: ActingUser, type: ReimbursementType, now: Date): Reimbursement {
  const at = now.toISOString();
  return {
    id, user_id: user.id, business_id: user.business_id, type, status: 'DRAFT', merchant: null, amount: 1,
    currency: 'USD', transaction_date: at.slice(0, 10), memo: null, gl_account_id: null, department_id: null,
    distance_miles: null, start_location: null, end_location: null, trip_date: null, location: null, start_date: null,
    end_date: null, rejection_reason: null, receipt_ids: [], submitted_at: null, created_at: at, change_seq: 0, updated_at: at, deleted: false,
  };
}

/**
 * A new claim of the caller's own, submitted unless `submit` is false. The body's optional `id`
 * (client-generated, for offline creates) names the row; a repeat of a create the caller already
 * made with that id answers the stored row unchanged. An id used by anything else is refused.
 */
export async function createReimbursement(tx: Queryable, user: ActingUser, input: CreateInput, now: Date): Promise<Reimbursement> {
  const id = input.body.id ?? crypto.randomUUID();
  if (input.body.id) {
    const [existing] = await tx.query<{ business_id: string; user_id: string; type: string; deleted: boolean; doc: Reimbursement }>(
      `SELECT r.business_id::text, r.user_id::text, r.type, r.deleted, ${DOC} AS doc FROM reimbursements r WHERE r.id = $1`,
      [id],
    );
    if (existing) {
      const mine = existing.business_id === user.business_id && existing.user_id === user.id;
      if (mine && existing.type === input.type && !existing.deleted) return existing.doc;
      throw validationError({ id: 'id is already used by another reimbursement' });
    }
  }
  const rates = input.type === 'OUT_OF_POCKET' ? [] : await businessRates(tx, user.business_id);
  const row = applyCreate(skeleton(id, user, input.type, now), { ...input, id }, rates);
  const errors = claimErrors(row, now, rates);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  await checkCodingRefs(tx, user.business_id, { gl_account_id: row.gl_account_id, department_id: row.department_id });
  if (row.receipt_ids.length > 0) await checkClaimReceipts(tx, user.business_id, await visibilityOf(tx, user), row.receipt_ids);
  // A submitted claim opens its review: the claim and its approval, each with its own seq.
  const submitted = row.status === 'SUBMITTED';
  return writeMirrored(tx, user.business_id, submitted ? 2 : 1, async ({ seqs }) => {
    const stamped = { ...row, change_seq: seqs.first };
    const rows = await tx.query<{ doc: Reimbursement }>(
      `INSERT INTO reimbursements AS r (id, business_id, user_id, ${COLUMNS.join(', ')})
       VALUES ($1, $2, $3, ${COLUMNS.map((_, i) => `$${i + 4}`).join(', ')})
       RETURNING ${DOC} AS doc`,
      [id, user.business_id, user.id, ...values(stamped)],
    );
    if (!submitted) return rows[0]!.doc;
    await openApproval(tx, stamped, seqs.last);
    return afterClaimSubmitted(tx, rows[0]!.doc);
  });
}

/**
 * Loads the caller's own claim for a write, locked, after the write's seq is reserved (every
 * writer locks the business row first). Invisible or unknown → 404; visible but someone
 * else's → 403.
 */
async function ownForWrite(tx: Queryable, user: ActingUser, vis: Visibility, id: string): Promise<Reimbursement> {
  const doc = await findReimbursement(tx, user.business_id, vis, id, true);
  if (!doc) throw new ApiError('REQUEST_7004');
  if (doc.user_id !== user.id) throw new ApiError('FORBIDDEN_7003');
  return reimbursementSchema.parse(doc);
}

export async function storeReimbursement(tx: Queryable, next: Reimbursement): Promise<Reimbursement> {
  const sets = COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ');
  const rows = await tx.query<{ doc: Reimbursement }>(
    `UPDATE reimbursements r SET ${sets} WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
    [next.business_id, next.id, ...values(next)],
  );
  return rows[0]!.doc;
}

/** PATCH: edit a draft or a rejected claim; the claim stays in its status. */
export async function updateReimbursement(
  tx: Queryable, user: ActingUser, vis: Visibility, id: string, patch: ReimbursementPatch, now: Date,
): Promise<Reimbursement> {
  // Before the business row's lock, as a receipt's delete takes them (receipt, then business).
  if (patch.receipt_ids?.length) await checkClaimReceipts(tx, user.business_id, vis, patch.receipt_ids);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await ownForWrite(tx, user, vis, id);
    // Issue 12: before the status's rule, so a synced claim's refusal says how to unlock it.
    const synced = syncedClaimRefusal(current.accounting_synced_at, patch);
    if (synced) throw new ApiError('ACCOUNTING_7301', synced);
    refuse(checkEditable(current.status));
    const foreign = foreignFields(current.type, patch);
    if (Object.keys(foreign).length > 0) throw validationError(foreign);
    const stamped = { ...current, change_seq: seqs.last, updated_at: now.toISOString() };
    // The amount is recomputed at the business's rates of now (a rate changed since applies).
    const rates = current.type === 'OUT_OF_POCKET' ? [] : await businessRates(tx, user.business_id);
    const next = reimbursementUpdate.apply(stamped, { reimbursement_id: id, patch, rates: [...rates] });
    const errors = claimErrors(next, now, rates);
    if (Object.keys(errors).length > 0) throw validationError(errors);
    await checkCodingRefs(tx, user.business_id, { gl_account_id: next.gl_account_id, department_id: next.department_id });
    return storeReimbursement(tx, next);
  });
}

/**
 * DRAFT → SUBMITTED (`submit`; it also takes a rejected claim back), or REJECTED → SUBMITTED
 * (`resubmit`). Either opens a new PENDING approval; the decided ones stay as history.
 */
export async function submitReimbursement(
  tx: Queryable, user: ActingUser, vis: Visibility, id: string, now: Date, action: 'submit' | 'resubmit' = 'submit',
): Promise<Reimbursement> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const current = await ownForWrite(tx, user, vis, id);
    refuse(checkAction(action, current.status));
    const stamped = { ...current, change_seq: seqs.first, updated_at: now.toISOString() };
    const next = await storeReimbursement(tx, reimbursementSubmit.apply(stamped, { reimbursement_id: id }));
    await openApproval(tx, next, seqs.last);
    return afterClaimSubmitted(tx, next);
  });
}

/**
 * Runs the claim.submitted workflows and answers the claim as they left it: one that approved it
 * in this transaction answers APPROVED (with the seq of that write), so the client's mirror,
 * which stores a confirmed answer as the row, never shows it SUBMITTED until the feed comes.
 */
async function afterClaimSubmitted(tx: Queryable, submitted: Reimbursement): Promise<Reimbursement> {
  await runWorkflows(tx, submitted.business_id, { trigger: 'claim.submitted', objectId: submitted.id });
  const [after] = await tx.query<{ doc: Reimbursement }>(
    `SELECT ${DOC} AS doc FROM reimbursements r WHERE r.business_id = $1 AND r.id = $2`, [submitted.business_id, submitted.id],
  );
  return after?.doc ?? submitted;
}

/** DRAFT | SUBMITTED | REJECTED → CANCELED, by the claimant; a pending review is canceled with it. */
export async function cancelReimbursement(tx: Queryable, user: ActingUser, vis: Visibility, id: string, now: Date): Promise<Reimbursement> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const current = await ownForWrite(tx, user, vis, id);
    refuse(checkAction('cancel', current.status));
    const stamped = { ...current, change_seq: seqs.first, updated_at: now.toISOString() };
    const next = await storeReimbursement(tx, applyStatus(stamped, 'CANCELED'));
    await cancelOpenApproval(tx, next, seqs.last);
    return next;
  });
}

/** Deletes a draft: a tombstone with a new seq, so mirrors drop it. */
export async function deleteReimbursement(
  tx: Queryable, user: ActingUser, vis: Visibility, id: string,
): Promise<{ id: string; deleted: true; change_seq: number }> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await ownForWrite(tx, user, vis, id);
    refuse(checkDeletable(current.status));
    await tx.query(
      'UPDATE reimbursements SET deleted = true, change_seq = $3, updated_at = now() WHERE business_id = $1 AND id = $2',
      [user.business_id, id, seqs.last],
    );
    return { id, deleted: true as const, change_seq: seqs.last };
  });
}

/**
 * §7 PUT draft save. A new id creates the caller's draft; the caller's live DRAFT of the same type
 * gets the body's fields (PATCH rules and checks). Another business's id, or one the caller
 * cannot see, is 404; a visible claim of someone else 403; a type change or a claim past DRAFT 422.
 */
export async function saveDraft(tx: Queryable, user: ActingUser, vis: Visibility, id: string, body: DraftBody, now: Date): Promise<Reimbursement> {
  const [existing] = await tx.query<{ business_id: string; deleted: boolean }>(
    'SELECT business_id::text, deleted FROM reimbursements WHERE id = $1', [id],
  );
  if (!existing) {
    const { type, ...fields } = body;
    const input = { type, body: { ...fields, id, submit: false } } as CreateInput;
    return createReimbursement(tx, user, input, now);
  }
  if (existing.business_id !== user.business_id || existing.deleted) throw new ApiError('REQUEST_7004');
  const current = await findReimbursement(tx, user.business_id, vis, id);
  if (!current) throw new ApiError('REQUEST_7004');
  if (current.user_id !== user.id) throw new ApiError('FORBIDDEN_7003');
  if (current.type !== body.type) throw validationError({ type: `type cannot change: this reimbursement is ${current.type}` });
  if (current.status !== 'DRAFT') {
    throw new ApiError('REQUEST_7001', `This reimbursement is ${current.status.toLowerCase()} (status ${current.status}); only a draft is saved as a draft.`);
  }
  return updateReimbursement(tx, user, vis, id, draftPatch(body), now);
}
