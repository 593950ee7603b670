import { randomUUID } from 'node:crypto';
import type { SpendRequestCreate, SpendRequestPatch } from '../../../schema/api/calls-procurement.ts';
import { requestLines } from '../../../schema/commands/spend-request.ts';
import { spendRequestSchema, type SpendRequest } from '../../../schema/entities/spend-request.ts';
import { checkSpendRequestAction, type SpendRequestAction } from '../../../schema/procurement-rules.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { cancelOpenApproval, openApproval } from '../approval-rows.ts';
import { COLLECTIONS, writeMirrored } from '../collections.ts';
import { newestFirstPage } from '../newest-first-page.ts';
import { viewerFor } from '../visibility.ts';
import { assertMayRequestFor, assertTypeEnabled, checkRequestFields, findOpenAllocation } from './request-checks.ts';
import { deleteOwnerDocuments } from './documents.ts';

/**
 * Issue 28: spend requests — create (a draft, or submitted at once with an approval opened
 * through the business's `spend_request` policy), edit and submit a draft, cancel, delete. Every
 * write goes through writeMirrored (the business row's lock orders a business's writers, so a
 * client id's create happens once) and stamps the request with a change seq the feed carries.
 * Reads: the `spend_request` visibility rule, the feed's own: the `owner` rule on `user_id` (the
 * person, their managers, business-wide roles), whoever asked for them (`requested_by`) and the
 * approvers named on its approvals' steps; anything else, another business's included, is 404.
 * Line ids are derived from the request id (`requestLines`), as the device derives them offline.
 * Deciding (and fulfilling) is fulfil.ts, called by domain/approvals.ts.
 */

export const REQUEST_DOC = COLLECTIONS.spend_requests.docSql;

const COLUMNS = [
  'user_id', 'requested_by', 'type', 'status', 'amount', 'currency', 'limit_interval', 'description', 'vendor_id', 'line_items',
  'needed_by', 'spend_allocation_id', 'document_ids', 'approval_id', 'rejection_reason', 'card_id', 'purchase_order_id',
  'submitted_at', 'decided_at', 'fulfilled_at', 'canceled_at', 'created_at', 'updated_at', 'change_seq', 'deleted',
] as const;
const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = { line_items: '::jsonb', document_ids: '::uuid[]' };
const values = (r: SpendRequest) => [
  r.user_id, r.requested_by, r.type, r.status, r.amount.amount, r.amount.currency, r.interval, r.description, r.vendor_id,
  JSON.stringify(r.line_items), r.needed_by, r.spend_allocation_id, r.document_ids, r.approval_id, r.rejection_reason, r.card_id,
  r.purchase_order_id, r.submitted_at, r.decided_at, r.fulfilled_at, r.canceled_at, r.created_at, r.updated_at, r.change_seq, r.deleted,
];
const cast = (c: (typeof COLUMNS)[number]) => CASTS[c] ?? '';

async function insertRequest(tx: Queryable, r: SpendRequest): Promise<SpendRequest> {
  const cols = ['id', 'business_id', ...COLUMNS];
  const [row] = await tx.query<{ doc: SpendRequest }>(
    `INSERT INTO spend_requests AS r (${cols.join(', ')})
     VALUES ($1, $2, ${COLUMNS.map((c, i) => `$${i + 3}${cast(c)}`).join(', ')}) RETURNING ${REQUEST_DOC} AS doc`,
    [r.id, r.business_id, ...values(r)],
  );
  return row!.doc;
}

/** Writes every column of `next` (the caller holds the row's lock and stamped its seq). */
export async function storeRequest(tx: Queryable, next: SpendRequest): Promise<SpendRequest> {
  const sets = COLUMNS.map((c, i) => `${c} = $${i + 3}${cast(c)}`).join(', ');
  const [row] = await tx.query<{ doc: SpendRequest }>(
    `UPDATE spend_requests r SET ${sets} WHERE r.business_id = $1 AND r.id = $2 RETURNING ${REQUEST_DOC} AS doc`,
    [next.business_id, next.id, ...values(next)],
  );
  return row!.doc;
}

/**
 * Requests the caller may read: the collection's `spend_request` visibility rule (the `owner`
 * rule, or they asked for it, or a step of one of its approvals names them: an approver opens the
 * request from the inbox whatever their role), the very rule the feed mirrors it by.
 */
async function readableClause(db: Queryable, user: ActingUser, params: unknown[]): Promise<string> {
  const rule = COLLECTIONS.spend_requests.visibility;
  return rule.where(await viewerFor(db, user, [rule]), 'r', params);
}

/** A live request of the business the caller may read (`lock`: FOR UPDATE), else 404. */
export async function findRequest(db: Queryable, user: ActingUser, id: string, lock = false): Promise<SpendRequest> {
  const params: unknown[] = [user.business_id, id];
  const visible = await readableClause(db, user, params);
  const [row] = await db.query<{ doc: SpendRequest }>(
    `SELECT ${REQUEST_DOC} AS doc FROM spend_requests r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visible}${lock ? ' FOR UPDATE OF r' : ''}`,
    params,
  );
  if (!row) throw new ApiError('REQUEST_7004', 'Spend request not found.');
  return spendRequestSchema.parse(row.doc);
}

/**
 * A request the caller may change (`action`): readable (else 404), theirs or asked for by them
 * (else 403), in a status the action is open in (else 409 PROCUREMENT_7003 naming the status).
 */
export async function requestForWrite(tx: Queryable, user: ActingUser, id: string, action: SpendRequestAction): Promise<SpendRequest> {
  const current = await findRequest(tx, user, id, true);
  if (current.user_id !== user.id && current.requested_by !== user.id) {
    throw new ApiError('FORBIDDEN_7003', 'Only the person a spend request is for, or who asked for them, can change it.');
  }
  const check = checkSpendRequestAction(action, current.status);
  if (!check.ok) throw new ApiError(check.code, check.message);
  return current;
}

/** The submitted request's approval, opened under the `spend_request` policy (amount, the person's department, the vendor). */
async function submit(tx: Queryable, r: SpendRequest, seq: number): Promise<SpendRequest> {
  const [person] = await tx.query<{ department_id: string | null }>('SELECT department_id::text FROM spend_users WHERE id = $1', [r.user_id]);
  const approval = await openApproval(tx, {
    id: r.id, business_id: r.business_id, user_id: r.user_id, updated_at: r.updated_at, amount: r.amount.amount, currency: r.amount.currency,
    department_id: person?.department_id ?? null, vendor_id: r.vendor_id,
  }, seq, 'spend_request');
  return { ...r, status: 'PENDING_APPROVAL', approval_id: approval.id, submitted_at: r.updated_at };
}

/**
 * A repeat of a create the caller already made with that client id answers the stored row (the
 * offline outbox resending after a lost answer); an id used by anything else is a 422 on `id`. So
 * is an id sharing its first 24 characters with another request's: line ids are derived from that
 * prefix (`requestLines`) and become purchase order line ids, which must be unique everywhere
 * (migration 050's unique index holds it; this names the field first).
 */
async function repeatedCreate(tx: Queryable, user: ActingUser, id: string): Promise<SpendRequest | null> {
  const [existing] = await tx.query<{ id: string; business_id: string; requested_by: string; deleted: boolean; doc: SpendRequest }>(
    `SELECT r.id::text, r.business_id::text, r.requested_by::text, r.deleted, ${REQUEST_DOC} AS doc FROM spend_requests r
      WHERE left(r.id::text, 24) = left(lower($1), 24)`, [id],
  );
  if (!existing) return null;
  if (existing.id !== id.toLowerCase()) {
    throw validationError({ id: 'id is too close to another spend request\'s id (their line ids would repeat): use a fresh random id' });
  }
  if (existing.business_id === user.business_id && existing.requested_by === user.id && !existing.deleted) return existing.doc;
  throw validationError({ id: 'id is already used by another spend request' });
}

/** POST /spend-requests: a DRAFT (`submit: false`) or PENDING_APPROVAL with its approval. */
export async function createSpendRequest(tx: Queryable, user: ActingUser, body: SpendRequestCreate, now: Date): Promise<SpendRequest> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const repeat = body.id ? await repeatedCreate(tx, user, body.id) : null;
    if (repeat) return repeat;
    await assertTypeEnabled(tx, user.business_id, body.type);
    const forUser = body.for_user_id ?? user.id;
    await assertMayRequestFor(tx, user, forUser);
    const at = now.toISOString();
    const id = body.id ?? randomUUID();
    const draft: SpendRequest = {
      id, business_id: user.business_id, user_id: forUser, requested_by: user.id, type: body.type, status: 'DRAFT',
      amount: body.amount, interval: body.interval ?? 'TOTAL', description: body.description, vendor_id: body.vendor_id ?? null,
      line_items: requestLines(id, body.line_items ?? []), needed_by: body.needed_by ?? null, spend_allocation_id: body.spend_allocation_id ?? null,
      document_ids: [], approval_id: null, rejection_reason: null, card_id: null, purchase_order_id: null,
      submitted_at: null, decided_at: null, fulfilled_at: null, canceled_at: null, created_at: at, updated_at: at, change_seq: seqs.last, deleted: false,
    };
    await checkRequestFields(tx, user, draft, now);
    // The row first, so the approval's instance names an existing object.
    const inserted = await insertRequest(tx, draft);
    if (body.submit === false) return inserted;
    return storeRequest(tx, await submit(tx, spendRequestSchema.parse(inserted), seqs.first));
  });
}

/** PATCH: a draft's fields (the whole request re-checked as it would be stored), and `submit: true` sends it. */
export async function updateSpendRequest(tx: Queryable, user: ActingUser, id: string, patch: SpendRequestPatch, now: Date): Promise<SpendRequest> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const current = await requestForWrite(tx, user, id, patch.submit ? 'submit' : 'edit');
    const { submit: send, line_items: lines, ...fields } = patch;
    const at = now.toISOString();
    const next: SpendRequest = {
      ...current, ...fields, ...(lines ? { line_items: requestLines(current.id, lines) } : {}), change_seq: seqs.last, updated_at: at,
    };
    if (send) await assertTypeEnabled(tx, user.business_id, next.type);
    await checkRequestFields(tx, user, next, now);
    return storeRequest(tx, send ? await submit(tx, next, seqs.first) : next);
  });
}

/** DRAFT or PENDING_APPROVAL → CANCELED; a pending one's open approval (and its chain) is canceled in the same transaction. */
export async function cancelSpendRequest(tx: Queryable, user: ActingUser, id: string, now: Date): Promise<SpendRequest> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const current = await requestForWrite(tx, user, id, 'cancel');
    const at = now.toISOString();
    const next = await storeRequest(tx, { ...current, status: 'CANCELED', canceled_at: at, change_seq: seqs.last, updated_at: at });
    await cancelOpenApproval(tx, { id, business_id: user.business_id, updated_at: at }, seqs.first);
    return next;
  });
}

/** DELETE (body): a DRAFT, REJECTED or CANCELED request becomes a tombstone, its documents with it. */
export async function deleteSpendRequest(tx: Queryable, user: ActingUser, id: string, now: Date) {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const current = await requestForWrite(tx, user, id, 'delete');
    await deleteOwnerDocuments(tx, { business_id: user.business_id, owner_type: 'spend_request', owner_id: id });
    await storeRequest(tx, { ...current, deleted: true, document_ids: [], change_seq: seqs.first, updated_at: now.toISOString() });
    return { id, deleted: true as const, change_seq: seqs.first };
  });
}

export type SpendRequestListQuery = {
  status?: SpendRequest['status'] | undefined; type?: SpendRequest['type'] | undefined; user_id?: string | undefined;
  pageSize: number; start?: string | undefined; includeCount: boolean;
};

/**
 * §7 keyset list, newest first. Without `user_id`: the caller's own requests and those they asked
 * for someone else; with it, that person's requests as far as the caller may read them.
 */
export async function listSpendRequests(db: Queryable, user: ActingUser, q: SpendRequestListQuery) {
  const params: unknown[] = [user.business_id];
  const conds = ['r.business_id = $1', 'NOT r.deleted'];
  if (q.status) conds.push(`r.status = $${params.push(q.status)}`);
  if (q.type) conds.push(`r.type = $${params.push(q.type)}`);
  if (q.user_id) conds.push(`r.user_id = $${params.push(q.user_id)}::uuid`);
  else conds.push(`(r.user_id = $${params.push(user.id)}::uuid OR r.requested_by = $${params.length}::uuid)`);
  const where = conds.join(' AND ') + await readableClause(db, user, params);
  return newestFirstPage<SpendRequest>(db, { table: 'spend_requests', doc: REQUEST_DOC, where, params }, q);
}

/**
 * PUT /spend-allocation/:id/requests: a member asks for more room in a budget they can see (else
 * 404): a GENERAL_EXPENSE request naming it, in its currency, submitted at once.
 */
export async function requestAllocationRoom(
  tx: Queryable, user: ActingUser, allocationId: string, body: { id?: string | undefined; amount: number; description: string }, now: Date,
): Promise<SpendRequest> {
  const allocation = await findOpenAllocation(tx, user, user.business_id, allocationId, now);
  return createSpendRequest(tx, user, {
    ...(body.id ? { id: body.id } : {}), type: 'GENERAL_EXPENSE', amount: { amount: body.amount, currency: allocation.limit_currency as SpendRequest['amount']['currency'] },
    description: body.description, spend_allocation_id: allocationId,
  }, now);
}
