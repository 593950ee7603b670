import { randomUUID } from 'node:crypto';
import type { CardRequestBody } from '../../schema/api/calls-cards.ts';
import { applyRequestStatus, cardRequestCancel, newCard, newCardRequest } from '../../schema/commands/card.ts';
import type { Approval } from '../../schema/entities/approval.ts';
import { cardRequestSchema, type CardRequest, type CardRequestFilter } from '../../schema/entities/card-request.ts';
import type { Card } from '../../schema/entities/card.ts';
import { queryTerms } from '../../schema/transaction-query.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { cancelOpenApproval, openApproval } from './approval-rows.ts';
import { insertIssuedCard } from './cards.ts';
import { newestFirstPage } from './newest-first-page.ts';
import { COLLECTIONS, writeMirrored, type MirroredWrite } from './collections.ts';
import { escapeLike } from './transaction-sql.ts';
import { visibleUsersClause, type Visibility } from './visibility.ts';
import { runWorkflows } from './workflows/engine.ts';

/**
 * Card requests (issue 10): an employee asks for a card; the request opens a PENDING approval
 * (object_type `card_request`, approver scope the requester's manager) in the same transaction.
 * Approving issues the card through the one issuing path (cards.ts `insertIssuedCard`);
 * rejecting records the reason; the requester may cancel a pending one. Reads: the `owner` rule.
 */

const DOC = COLLECTIONS.card_requests.docSql;

const COLUMNS = [
  'user_id', 'is_physical', 'amount', 'currency', 'limit_interval', 'reason', 'status', 'card_id', 'rejection_reason',
  'decided_by', 'decided_at', 'created_at', 'updated_at', 'change_seq',
] as const;
const values = (r: CardRequest) => [
  r.user_id, r.is_physical, r.amount, r.currency, r.interval, r.reason, r.status, r.card_id, r.rejection_reason,
  r.decided_by, r.decided_at, r.created_at, r.updated_at, r.change_seq,
];

async function storeRequest(tx: Queryable, next: CardRequest): Promise<CardRequest> {
  const sets = COLUMNS.map((c, i) => `${c} = $${i + 3}`).join(', ');
  const rows = await tx.query<{ doc: CardRequest }>(
    `UPDATE card_requests r SET ${sets} WHERE r.business_id = $1 AND r.id = $2 RETURNING ${DOC} AS doc`,
    [next.business_id, next.id, ...values(next)],
  );
  return rows[0]!.doc;
}

/**
 * A request of the caller's own, with its approval. A repeat of a create the caller already made
 * with that client id answers the stored row (checked under the business lock, so racing
 * repeats make one request); an id used by anything else is refused.
 */
export async function createCardRequest(tx: Queryable, user: ActingUser, body: CardRequestBody, now: Date): Promise<CardRequest> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const id = body.id ?? randomUUID();
    const [existing] = body.id
      ? await tx.query<{ business_id: string; user_id: string; doc: CardRequest }>(
        `SELECT r.business_id::text, r.user_id::text, ${DOC} AS doc FROM card_requests r WHERE r.id = $1`, [id],
      )
      : [];
    if (existing) {
      if (existing.business_id === user.business_id && existing.user_id === user.id) return existing.doc;
      throw validationError({ id: 'id is already used by another card request' });
    }
    const row = { ...newCardRequest({ ...body, id }, { id, actor: { user_id: user.id, business_id: user.business_id }, at: now.toISOString() }), change_seq: seqs.first };
    const cols = ['id', 'business_id', ...COLUMNS];
    const [inserted] = await tx.query<{ doc: CardRequest }>(
      `INSERT INTO card_requests AS r (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${DOC} AS doc`,
      [row.id, row.business_id, ...values(row)],
    );
    await openApproval(tx, row, seqs.last, 'card_request');
    await runWorkflows(tx, user.business_id, { trigger: 'card_request.created', objectId: row.id });
    return inserted!.doc;
  });
}

async function findRequest(db: Queryable, businessId: string, vis: Visibility, id: string, lock = false): Promise<CardRequest | null> {
  const params: unknown[] = [businessId, id];
  const rows = await db.query<{ doc: CardRequest }>(
    `SELECT ${DOC} AS doc FROM card_requests r
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visibleUsersClause(vis, 'r', params)}${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  return rows[0] ? cardRequestSchema.parse(rows[0].doc) : null;
}

const requestCheck = (r: CardRequest, verb: string) =>
  r.status === 'PENDING'
    ? { ok: true as const }
    : { ok: false as const, message: `This card request is ${r.status.toLowerCase()} (status ${r.status}) and cannot be ${verb}.` };

/** PENDING → CANCELED by the requester; the open approval is canceled with it. */
export async function cancelCardRequest(tx: Queryable, user: ActingUser, vis: Visibility, id: string, now: Date): Promise<CardRequest> {
  return writeMirrored(tx, user.business_id, 2, async ({ seqs }) => {
    const current = await findRequest(tx, user.business_id, vis, id, true);
    if (!current) throw new ApiError('REQUEST_7004');
    if (current.user_id !== user.id) throw new ApiError('FORBIDDEN_7003', 'Only the requester can cancel a card request.');
    refuse(requestCheck(current, 'canceled'));
    const stamped = { ...current, change_seq: seqs.first, updated_at: now.toISOString() };
    const next = await storeRequest(tx, cardRequestCancel.apply(stamped, { request_id: id }));
    await cancelOpenApproval(tx, next, seqs.last);
    return next;
  });
}

export type CardRequestPageRequest = { filter: CardRequestFilter; pageSize: number; start?: string | undefined; includeCount: boolean };

/** §7 keyset list, newest first. */
export async function listCardRequests(db: Queryable, businessId: string, vis: Visibility, req: CardRequestPageRequest) {
  const params: unknown[] = [businessId];
  const conds = ['r.business_id = $1', 'NOT r.deleted'];
  const f = req.filter;
  if (f.statuses?.length) conds.push(`r.status = ANY($${params.push(f.statuses)}::text[])`);
  if (f.user_ids?.length) conds.push(`r.user_id = ANY($${params.push(f.user_ids)}::uuid[])`);
  for (const term of queryTerms(f.q)) conds.push(`lower(r.reason) LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  const where = conds.join(' AND ') + visibleUsersClause(vis, 'r', params);
  return newestFirstPage<CardRequest>(db, { table: 'card_requests', doc: DOC, where, params }, req);
}

export type RequestDecision = { status: 'APPROVED' } | { status: 'REJECTED'; reason: string };

/**
 * The card-request half of an approval's decision (domain/approvals.ts decided the approval and
 * holds its lock): the request → APPROVED with a card issued to the requester at the requested
 * limit, or → REJECTED with the reason. `w` is the decision's writeMirrored (the request takes
 * `seq`; the card reserves one more).
 */
export async function decideCardRequest(
  tx: Queryable, reviewer: ActingUser, approval: Approval, decision: RequestDecision, w: MirroredWrite, seq: number, now: Date,
): Promise<{ card_request: CardRequest; card?: Card; change_seq: number }> {
  const request = await findRequest(tx, reviewer.business_id, { all: true }, approval.object_id, true);
  if (!request) throw new ApiError('REQUEST_7004');
  refuse(requestCheck(request, decision.status === 'APPROVED' ? 'approved' : 'rejected'));
  const at = now.toISOString();
  const stamped = { ...request, change_seq: seq, updated_at: at, decided_by: reviewer.id };
  if (decision.status === 'REJECTED') {
    return { card_request: await storeRequest(tx, applyRequestStatus(stamped, 'REJECTED', decision.reason)), change_seq: seq };
  }
  const cardSeq = (await w.reserve(1)).last;
  const [holder] = await tx.query<{ department_id: string | null; location_id: string | null }>(
    'SELECT department_id::text, location_id::text FROM spend_users WHERE id = $1', [request.user_id],
  );
  const id = randomUUID();
  const blank = newCard({
    id, user_id: request.user_id, display_name: request.is_physical ? 'Physical card' : 'Virtual card', is_physical: request.is_physical,
    limit: { amount: request.amount, currency: request.currency, interval: request.interval, per_transaction: null },
    allowed_categories: [], department_id: holder?.department_id ?? null, location_id: holder?.location_id ?? null,
  }, { id, actor: { user_id: reviewer.id, business_id: reviewer.business_id }, at });
  const card = await insertIssuedCard(tx, blank, cardSeq, now, reviewer.id);
  const approved = await storeRequest(tx, { ...applyRequestStatus(stamped, 'APPROVED'), card_id: card.id });
  return { card_request: approved, card, change_seq: cardSeq };
}
