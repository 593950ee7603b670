import { produce } from 'immer';
import { defineCommand, type BlankContext } from './define-command.ts';
import { asTombstone, cancelsOpenReview, createWithId, rowCommand } from './row-commands.ts';
import { lineIdOf } from './bill.ts';
import {
  cancelSpendRequest, createSpendRequest, deleteSpendRequest, spendRequestCreateSchema, spendRequestPatchSchema, updateSpendRequest,
  type RequestLineBody, type SpendRequestCreate, type SpendRequestPatch,
} from '../api/calls-procurement.ts';
import type { RequestLine, SpendRequest } from '../entities/spend-request.ts';
import { checkSpendRequestAction, spendRequestErrors } from '../procurement-rules.ts';
import { earliestTodayAnywhere } from '../travel-rules.ts';

/**
 * Spend request commands (issue 28): a request is made, edited, submitted, canceled and deleted
 * offline and sent once. Each `apply` is pure and follows the server (the same rules:
 * schema/procurement-rules.ts), so the row shown offline is the row the server stores; what only
 * the server knows (the approval it opened, the card or purchase order that came of it) arrives
 * with its answer (`confirm: 'row'`) or the feed.
 * A move the rules refuse (an edit of a request no longer a draft, a submit with field errors, a
 * cancel of a decided request) leaves the row as it is: the server refuses by name and the outbox
 * keeps the command for the person to see.
 * The moment of a write is the row's `updated_at`, stamped by the caller before `apply` (the
 * worker shows the server's last write until the answer comes). A request made for someone else
 * (`for_user_id`) is theirs (`user_id`); whether the actor may is the server's call (§6, 403).
 */

/**
 * A request's lines as stored, here and on the server (domain/procurement/spend-requests.ts uses
 * this very function): ids derived from the request id and the position (as bills' `lineIdOf`:
 * the id's first 24 characters, then the position in hex), so `apply` stays pure and a request made
 * offline keeps its line ids when the server's row arrives. A line id becomes its purchase order
 * line's id, unique everywhere: the server refuses a request id sharing those 24 characters with
 * another request's (migration 050). Lower case, as the server prints uuids.
 */
export function requestLines(requestId: string, lines: readonly RequestLineBody[]): RequestLine[] {
  const id = requestId.toLowerCase();
  return lines.map((l, i) => ({ id: lineIdOf(id, i), description: l.description, quantity: l.quantity, unit_price: l.unit_price }));
}

/** The date a `needed_by` may not be before, at the write's moment: today somewhere on Earth (UTC−12), whatever the requester's zone. */
const todayAt = (at: string) => earliestTodayAnywhere(new Date(at));

/** Field errors of the request as it would be submitted at the row's write moment (schema/procurement-rules.ts). */
export const spendRequestRowErrors = (row: SpendRequest) => spendRequestErrors(row, todayAt(row.updated_at));

/**
 * A request before its create's `apply` (the worker shows a request made offline from it at once):
 * the actor's (or the person's it was made for), asked by the actor at `at`, DRAFT or — by default
 * — PENDING_APPROVAL, nothing decided, attached or fulfilled yet.
 */
export function newSpendRequest(body: SpendRequestCreate, { id, actor, at }: BlankContext): SpendRequest {
  const submitted = body.submit !== false;
  return {
    id, user_id: body.for_user_id ?? actor.user_id, requested_by: actor.user_id, type: body.type,
    status: submitted ? 'PENDING_APPROVAL' : 'DRAFT', amount: body.amount, interval: body.interval ?? 'TOTAL',
    description: body.description, vendor_id: body.vendor_id ?? null, line_items: requestLines(id, body.line_items ?? []),
    needed_by: body.needed_by ?? null, spend_allocation_id: body.spend_allocation_id ?? null, document_ids: [],
    approval_id: null, rejection_reason: null, card_id: null, purchase_order_id: null,
    submitted_at: submitted ? at : null, decided_at: null, fulfilled_at: null, canceled_at: null, created_at: at,
    business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
  };
}

/**
 * A create's fields on the blank row, then its status: PENDING_APPROVAL (submitted at the write's
 * moment) when asked to submit and `spendRequestErrors` finds nothing, else a DRAFT (a request the
 * server will refuse is not shown as waiting for approval). A row the server already has (a
 * repeated create, or the feed faster than the answer) is left as the server has it.
 */
export function applySpendRequestCreate(row: SpendRequest, body: SpendRequestCreate): SpendRequest {
  if (row.change_seq > 0) return row;
  return produce(row, (d) => {
    d.type = body.type;
    d.amount = body.amount;
    d.interval = body.interval ?? 'TOTAL';
    d.description = body.description;
    d.vendor_id = body.vendor_id ?? null;
    d.line_items = requestLines(d.id, body.line_items ?? []);
    d.needed_by = body.needed_by ?? null;
    d.spend_allocation_id = body.spend_allocation_id ?? null;
    const submit = body.submit !== false && Object.keys(spendRequestErrors(d, todayAt(d.updated_at))).length === 0;
    d.status = submit ? 'PENDING_APPROVAL' : 'DRAFT';
    d.submitted_at = submit ? d.updated_at : null;
  });
}

/**
 * The request with `patch` applied as the server applies it: only a DRAFT takes field edits
 * (`checkSpendRequestAction('edit')`; lines replace all, ids derived again); `submit: true` sends
 * it for approval (PENDING_APPROVAL, submitted at the write's moment) — refused whole when the
 * request as it would be submitted has field errors.
 */
export function applySpendRequestPatch(row: SpendRequest, patch: SpendRequestPatch): SpendRequest {
  if (!checkSpendRequestAction(patch.submit ? 'submit' : 'edit', row.status).ok) return row;
  const next = produce(row, (d) => {
    if (patch.amount !== undefined) d.amount = patch.amount;
    if (patch.description !== undefined) d.description = patch.description;
    if (patch.vendor_id !== undefined) d.vendor_id = patch.vendor_id;
    if (patch.line_items !== undefined) d.line_items = requestLines(d.id, patch.line_items);
    if (patch.needed_by !== undefined) d.needed_by = patch.needed_by;
    if (patch.interval !== undefined) d.interval = patch.interval;
    if (patch.spend_allocation_id !== undefined) d.spend_allocation_id = patch.spend_allocation_id;
    if (patch.submit) {
      d.status = 'PENDING_APPROVAL';
      d.submitted_at = d.updated_at;
    }
  });
  if (patch.submit && Object.keys(spendRequestRowErrors(next)).length > 0) return row;
  return next;
}

/** The requester withdraws a draft or pending request: CANCELED at the write's moment; anything decided stays. */
export function applySpendRequestCancel(row: SpendRequest): SpendRequest {
  if (!checkSpendRequestAction('cancel', row.status).ok) return row;
  return produce(row, (d) => {
    d.status = 'CANCELED';
    d.canceled_at = d.updated_at;
  });
}

/** Only what never took effect (DRAFT, REJECTED, CANCELED) becomes a tombstone. */
export const applySpendRequestDelete = (row: SpendRequest): SpendRequest =>
  checkSpendRequestAction('delete', row.status).ok ? asTombstone(row) : row;

export const spendRequestCreate = defineCommand({
  // The id goes with the body: the server creates the request under it (a repeat answers the stored request).
  name: 'spendRequest.create', ...createWithId(spendRequestCreateSchema), collection: 'spend_requests', call: createSpendRequest,
  apply: (row, a) => applySpendRequestCreate(row, a),
  blank: (a, ctx) => newSpendRequest(a, ctx),
  // The create answers with the stored request (and its change seq).
  confirm: 'row',
});

/** Edits, cancels and deletes name a request the mirror holds (one made offline counts): REQUEST_7004 otherwise. */
const request = rowCommand('spend_requests', 'spend_request_id', 'spend_request_uuid');

export const spendRequestUpdate = defineCommand({
  name: 'spendRequest.update', ...request.shared, call: updateSpendRequest,
  args: request.shared.args.extend({ patch: spendRequestPatchSchema }),
  request: (a) => ({ ...request.shared.request(a), body: a.patch }),
  apply: (row, a) => applySpendRequestPatch(row, a.patch),
  check: request.inMirror,
  confirm: 'row',
});

/** A pending request's open approval is canceled in the same write: shown canceled at once. */
export const spendRequestCancel = defineCommand({
  name: 'spendRequest.cancel', ...request.shared, call: cancelSpendRequest,
  apply: (row) => applySpendRequestCancel(row),
  check: request.inMirror,
  also: cancelsOpenReview((a: { spend_request_id: string }) => a.spend_request_id),
  confirm: 'row',
});

/** §7's DELETE names the request in the body. The answer is the tombstone's seq: the row stays gone until the feed drops it. */
export const spendRequestDelete = defineCommand({
  name: 'spendRequest.delete', ...request.shared, call: deleteSpendRequest,
  request: (a) => ({ body: { spend_request_uuid: a.spend_request_id } }),
  apply: (row) => applySpendRequestDelete(row),
  check: request.inMirror,
  confirm: 'change_seq',
});
