import { randomUUID } from 'node:crypto';
import { newCard } from '../../../schema/commands/card.ts';
import type { Approval } from '../../../schema/entities/approval.ts';
import { MAX_CARD_LIMIT, type Card } from '../../../schema/entities/card.ts';
import type { PurchaseOrder } from '../../../schema/entities/purchase-order.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import { spendRequestStatusWords } from '../../../schema/procurement-rules.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { CARD_DOC, insertIssuedCard } from '../cards.ts';
import type { MirroredWrite } from '../collections.ts';
import { createPurchaseOrder } from './purchase-order-create.ts';
import { findOpenAllocation } from './request-checks.ts';
import { REQUEST_DOC, storeRequest } from './spend-requests.ts';

/**
 * Issue 28: the spend-request half of an approval's decision, run by domain/approvals.ts in the
 * decision's transaction once the chain's last step is decided (it holds the business lock, the
 * approval's row lock and the instance's). Rejected: REJECTED with the reason. Approved: fulfilled
 * at once, in the same transaction —
 * - GENERAL_EXPENSE without a budget: a virtual card for the person, limit = amount per interval;
 * - GENERAL_EXPENSE naming a budget: the budget's limit grows by the amount, the person joins it;
 * - PHYSICAL_CARD: a physical card (SHIPPED) with that limit;
 * - PRODUCT_OR_SERVICE: a purchase order (purchase-order-create.ts).
 * Exactly once: the request's row is locked FOR UPDATE and must still be PENDING_APPROVAL (a
 * second decision that got past its approval's check finds it FULFILLED and is refused), and
 * `cards.spend_request_id`, `spend_requests.card_id` / `purchase_order_id` and
 * `purchase_orders.spend_request_id` are unique behind it. Nothing is half-done: any refusal
 * (a budget archived since, a limit past the largest) rolls the whole decision back.
 */

export type SpendDecision = { status: 'APPROVED' } | { status: 'REJECTED'; reason: string };
export type SpendDecisionResult = { spend_request: SpendRequest; card?: Card; purchase_order?: PurchaseOrder; change_seq: number };

async function lockRequest(tx: Queryable, businessId: string, id: string): Promise<SpendRequest> {
  const [row] = await tx.query<{ doc: SpendRequest }>(
    `SELECT ${REQUEST_DOC} AS doc FROM spend_requests r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted FOR UPDATE`, [businessId, id],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'Spend request not found.');
  return row.doc;
}

/** The card a GENERAL_EXPENSE (virtual) or PHYSICAL_CARD request becomes, through the one issuing path. */
async function issueRequestCard(tx: Queryable, reviewer: ActingUser, r: SpendRequest, seq: number, now: Date): Promise<Card> {
  const physical = r.type === 'PHYSICAL_CARD';
  const [holder] = await tx.query<{ department_id: string | null; location_id: string | null }>(
    'SELECT department_id::text, location_id::text FROM spend_users WHERE id = $1', [r.user_id],
  );
  const id = randomUUID();
  const blank = newCard({
    id, user_id: r.user_id, display_name: r.description.slice(0, 80).trim() || (physical ? 'Physical card' : 'Virtual card'), is_physical: physical,
    limit: { amount: r.amount.amount, currency: r.amount.currency, interval: r.interval, per_transaction: null },
    allowed_categories: [], department_id: holder?.department_id ?? null, location_id: holder?.location_id ?? null,
  }, { id, actor: { user_id: reviewer.id, business_id: reviewer.business_id }, at: now.toISOString() });
  await insertIssuedCard(tx, blank, seq, now, reviewer.id);
  const [card] = await tx.query<{ doc: Card }>(
    `UPDATE cards r SET spend_request_id = $2 WHERE r.id = $1 RETURNING ${CARD_DOC} AS doc`, [id, r.id],
  );
  return card!.doc;
}

/** More room in the request's budget: its limit grows by the amount, the person becomes a member; re-stamped with `seq`. */
async function growAllocation(tx: Queryable, r: SpendRequest, seq: number, now: Date): Promise<void> {
  const allocation = await findOpenAllocation(tx, null, r.business_id, r.spend_allocation_id!, now, true);
  if (allocation.limit_currency !== r.amount.currency) {
    throw validationError({ 'amount.currency': `The budget is in ${allocation.limit_currency}, the request in ${r.amount.currency}.` });
  }
  if (allocation.limit_amount + r.amount.amount > MAX_CARD_LIMIT) {
    throw validationError({ amount: 'The budget\'s limit would pass the largest limit allowed.' });
  }
  await tx.query(
    `UPDATE spend_allocations SET limit_amount = limit_amount + $3,
            member_ids = CASE WHEN $4::uuid = ANY(member_ids) THEN member_ids ELSE array_append(member_ids, $4::uuid) END,
            change_seq = $5, updated_at = $6
      WHERE business_id = $1 AND id = $2`,
    [r.business_id, allocation.id, r.amount.amount, r.user_id, seq, now.toISOString()],
  );
}

/** Decides the approval's spend request (see the header); `seq` is the request's, `w` reserves what fulfilment writes. */
export async function decideSpendRequest(
  tx: Queryable, reviewer: ActingUser, approval: Approval, decision: SpendDecision, w: MirroredWrite, seq: number, now: Date,
): Promise<SpendDecisionResult> {
  const request = await lockRequest(tx, reviewer.business_id, approval.object_id);
  if (request.status !== 'PENDING_APPROVAL') {
    throw new ApiError('PROCUREMENT_7003', `This request is ${spendRequestStatusWords(request.status)}: there is nothing to decide.`);
  }
  const at = now.toISOString();
  const decided = { ...request, decided_at: at, updated_at: at, change_seq: seq };
  if (decision.status === 'REJECTED') {
    return { spend_request: await storeRequest(tx, { ...decided, status: 'REJECTED', rejection_reason: decision.reason }), change_seq: seq };
  }
  // APPROVED → FULFILLED within this transaction: the request keeps `seq`, what it becomes takes one more (the answer's).
  const madeSeq = (await w.reserve(1)).last;
  const fulfilled = { ...decided, status: 'FULFILLED' as const, fulfilled_at: at };
  if (request.type === 'PRODUCT_OR_SERVICE') {
    const purchaseOrder = await createPurchaseOrder(tx, request, madeSeq, at);
    const stored = await storeRequest(tx, { ...fulfilled, purchase_order_id: purchaseOrder.id });
    return { spend_request: stored, purchase_order: purchaseOrder, change_seq: madeSeq };
  }
  if (request.spend_allocation_id) {
    await growAllocation(tx, request, madeSeq, now);
    return { spend_request: await storeRequest(tx, fulfilled), change_seq: madeSeq };
  }
  const card = await issueRequestCard(tx, reviewer, request, madeSeq, now);
  return { spend_request: await storeRequest(tx, { ...fulfilled, card_id: card.id }), card, change_seq: madeSeq };
}

/**
 * Whoever asked for the request never decides it (APPROVAL_7201): a manager who asked for a
 * report waits for another approver like the report would. Called before any step moves.
 */
export async function refuseOwnSpendRequest(db: Queryable, reviewer: ActingUser, approval: Approval): Promise<void> {
  const [row] = await db.query<{ requested_by: string }>(
    'SELECT requested_by::text FROM spend_requests WHERE business_id = $1 AND id = $2', [reviewer.business_id, approval.object_id],
  );
  if (row?.requested_by === reviewer.id) {
    throw new ApiError('APPROVAL_7201', 'You asked for this spend request, so you cannot decide it. Another approver must decide it.');
  }
}

/** The chain moved on: the request names its next step's approval, re-stamped with `seq` (answered). */
export async function pointSpendRequestAt(tx: Queryable, requestId: string, next: Approval, seq: number): Promise<number> {
  await tx.query('UPDATE spend_requests SET approval_id = $3, change_seq = $4, updated_at = $5 WHERE business_id = $1 AND id = $2',
    [next.business_id, requestId, next.id, seq, next.updated_at]);
  return seq;
}
