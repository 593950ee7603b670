import { z } from 'zod';
import { produce } from 'immer';
import { chunkedParts, commandPart, defineCommand, type BlankContext, type CommandPart } from './define-command.ts';
import { cancelsOpenReview, createWithId, rowCommand } from './row-commands.ts';
import {
  activateCard, bulkLockCards, issueCard, cancelCardRequest, cardPatchSchema, cardRequestBodySchema, createCardRequest, favoriteCards,
  issueCardBodySchema, lockCard, MAX_BULK_LOCK, physicalRequestBodySchema, reissueCard, requestPhysicalCard, setPrimaryCard,
  suspendCard, terminateCard, unfavoriteCards, unlockCard, unsuspendCard, updateCard, type CardPatch, type IssueCardBody,
  type CardRequestBody,
} from '../api/calls-cards.ts';
import type { Card, CardStatus } from '../entities/card.ts';
import { checkCardAction } from '../card-rules.ts';
import type { CardRequest } from '../entities/card-request.ts';

/**
 * Card commands (issue 10). Each `apply` is pure: the worker runs it optimistically (a card
 * locked offline shows locked, marked pending, at once) and the server runs the same `apply`
 * with authority after checking the move (schema/card-rules.ts) and the actor's right.
 */

function applyCardStatus(row: Card, status: CardStatus): Card {
  return produce(row, (d) => {
    d.status = status;
  });
}

/**
 * A lock or unlock as the server applies it: only the move the action allows (ACTIVE → LOCKED,
 * LOCKED → ACTIVE); a card in any other status is shown as it is (the server refuses the call,
 * or leaves a card already in the target status alone).
 */
export function applyLock(row: Card, lock: boolean): Card {
  const ok = checkCardAction(lock ? 'lock' : 'unlock', row.status).ok;
  return ok ? applyCardStatus(row, lock ? 'LOCKED' : 'ACTIVE') : row;
}

export function applyCardPatch(row: Card, patch: CardPatch): Card {
  return produce(row, (d) => {
    if (patch.display_name !== undefined) d.display_name = patch.display_name;
    if (patch.limit !== undefined) d.limit = { ...patch.limit };
    if (patch.allowed_categories !== undefined) d.allowed_categories = [...new Set(patch.allowed_categories)];
    if (patch.department_id !== undefined) d.department_id = patch.department_id;
    if (patch.location_id !== undefined) d.location_id = patch.location_id;
  });
}

/**
 * A card before it is issued: REQUESTED, no number or expiry yet. The server issues it in the
 * same write (schema/card-rules.ts `issuedStatus`, a fresh last four and expiry); offline it
 * shows as requested until then.
 */
export function newCard(body: IssueCardBody & { id: string }, { actor, at }: BlankContext): Card {
  return {
    id: body.id, user_id: body.user_id, business_id: actor.business_id, display_name: body.display_name, last_four: null,
    is_physical: body.is_physical, status: 'REQUESTED', limit: { ...body.limit }, allowed_categories: [...new Set(body.allowed_categories)],
    department_id: body.department_id, location_id: body.location_id, expires: null, is_primary: false, is_favorite: false,
    replaces_id: null, replaced_by_id: null, spend_request_id: null, spend_allocation_id: body.spend_allocation_id ?? null,
    created_at: at, change_seq: 0, updated_at: at, deleted: false,
  };
}

const card = rowCommand('cards', 'card_id', 'card_uuid');
const byCard = card.shared.request;
/** What the commands that take one card by its id and nothing else share (confirmed by the row). */
const onCard = { ...card.shared, confirm: 'row' } as const;

export const cardIssue = defineCommand({
  name: 'card.issue', ...createWithId(issueCardBodySchema), collection: 'cards', call: issueCard,
  // The blank is the whole request; the server's answer (issued, numbered) replaces it.
  apply: (row) => row,
  blank: (a, ctx) => newCard(a, ctx),
  confirm: 'row',
});

export const cardUpdate = defineCommand({
  name: 'card.update', ...card.shared, call: updateCard,
  args: card.shared.args.extend({ patch: cardPatchSchema }),
  request: (a) => ({ ...byCard(a), body: a.patch }),
  apply: (row, a) => applyCardPatch(row, a.patch),
  confirm: 'row',
  edits: { row: (a) => a.card_id, patch: (a) => a.patch, withPatch: (a, patch) => ({ ...a, patch: patch as typeof a.patch }) },
});

export const cardActivate = defineCommand({
  name: 'card.activate', ...card.shared, call: activateCard,
  args: card.shared.args.extend({ last_four: z.string().regex(/^\d{4}$/) }),
  request: (a) => ({ ...byCard(a), body: { last_four: a.last_four } }),
  apply: (row) => applyCardStatus(row, 'ACTIVE'),
  confirm: 'row',
});

/** Lock and unlock: the one-click, works-offline action; the outbox sends it exactly once. */
export const cardLock = defineCommand({
  name: 'card.lock', ...onCard, call: lockCard,
  apply: (row) => applyLock(row, true),
  // Issue 25: a lock (a lost card) reaches the server before anything else queued.
  priority: 'first',
});

export const cardUnlock = defineCommand({
  name: 'card.unlock', ...onCard, call: unlockCard,
  apply: (row) => applyLock(row, false),
});

export const cardSuspend = defineCommand({
  name: 'card.suspend', ...onCard, call: suspendCard,
  apply: (row) => applyCardStatus(row, 'SUSPENDED'),
  priority: 'first',
});

export const cardUnsuspend = defineCommand({
  name: 'card.unsuspend', ...onCard, call: unsuspendCard,
  apply: (row) => applyCardStatus(row, 'ACTIVE'),
});

export const cardTerminate = defineCommand({
  name: 'card.terminate', ...onCard, call: terminateCard,
  apply: (row) => applyCardStatus(row, 'TERMINATED'),
  priority: 'first',
});

/**
 * Reissue: the card terminates at once; its successor (a new number) comes from the server,
 * through the feed (the answer names the last seq written).
 */
export const cardReissue = defineCommand({
  name: 'card.reissue', ...card.shared, call: reissueCard,
  args: card.shared.args.extend({ successor_id: z.uuid() }),
  request: (a) => ({ ...byCard(a), body: { successor_id: a.successor_id } }),
  apply: (row, a) => produce(applyCardStatus(row, 'TERMINATED'), (d) => {
    d.replaced_by_id = a.successor_id;
  }),
  confirm: 'change_seq',
  // Lost or stolen: the old card stops before anything else queued is sent.
  priority: 'first',
});

/** One call's worth of a bulk lock (at most 1,000 distinct cards, all or none). */
export const cardBulkLock = defineCommand({
  name: 'card.bulkLock',
  args: z.object({ card_ids: z.array(z.uuid()).min(1).max(MAX_BULK_LOCK), lock: z.boolean() }),
  collection: 'cards',
  entityIds: (a) => a.card_ids,
  call: bulkLockCards,
  request: (a) => ({ body: { card_uuids: a.card_ids, lock: a.lock } }),
  apply: (row, a) => applyLock(row, a.lock),
  confirm: 'change_seq',
  priority: (a) => (a.lock ? 'first' : undefined),
  items: (a) => a.card_ids.length,
  split: {
    input: z.object({ card_ids: z.array(z.uuid()).min(1), lock: z.boolean() }),
    parts: ({ card_ids, lock }): CommandPart[] => chunkedParts(
      card_ids, MAX_BULK_LOCK,
      (id) => commandPart(lock ? cardLock : cardUnlock, { card_id: id }),
      (ids) => commandPart(cardBulkLock, { card_ids: ids, lock }),
    ),
  },
});

/**
 * Primary card: the chosen card becomes primary and the cardholder's previous primary (named
 * in `previous_ids`, read from the mirror by the caller; never sent) stops being it, both at once.
 */
export const cardSetPrimary = defineCommand({
  name: 'card.setPrimary',
  args: card.shared.args.extend({ previous_ids: z.array(z.uuid()).default([]) }),
  collection: 'cards',
  entityIds: (a) => [a.card_id, ...a.previous_ids.filter((id) => id !== a.card_id)],
  call: setPrimaryCard,
  request: (a) => ({ body: { card_id: a.card_id } }),
  apply: (row, a) => produce(row, (d) => {
    d.is_primary = row.id === a.card_id;
  }),
  confirm: 'change_seq',
});

const favoriteArgs = z.object({ card_ids: z.array(z.uuid()).min(1).max(100) });

/** Favoriting and unfavoriting differ only in their call and the flag they set. */
function favoriteCommand<const N extends string>(name: N, call: typeof favoriteCards | typeof unfavoriteCards, isFavorite: boolean) {
  return defineCommand({
    name, args: favoriteArgs, collection: 'cards', entityIds: (a) => a.card_ids, call,
    request: (a) => ({ body: { card_ids: a.card_ids } }),
    apply: (row) => produce(row, (d) => {
      d.is_favorite = isFavorite;
    }),
    confirm: 'change_seq',
    items: (a) => a.card_ids.length,
  });
}

export const cardFavorite = favoriteCommand('card.favorite', favoriteCards, true);
export const cardUnfavorite = favoriteCommand('card.unfavorite', unfavoriteCards, false);

// --- Card requests -------------------------------------------------------------------------------

/** A request as its create starts it: PENDING, owned by the actor. */
export function newCardRequest(body: CardRequestBody & { id: string }, { actor, at }: BlankContext): CardRequest {
  return {
    id: body.id, user_id: actor.user_id, business_id: actor.business_id, is_physical: body.is_physical, amount: body.amount,
    currency: body.currency, interval: body.interval, reason: body.reason, status: 'PENDING', card_id: null,
    rejection_reason: null, decided_by: null, decided_at: null, created_at: at, change_seq: 0, updated_at: at, deleted: false,
  };
}

export const cardRequestCreate = defineCommand({
  name: 'cardRequest.create', ...createWithId(cardRequestBodySchema), collection: 'card_requests', call: createCardRequest,
  apply: (row) => row,
  blank: (a, ctx) => newCardRequest(a, ctx),
  confirm: 'row',
});

export const cardRequestPhysical = defineCommand({
  name: 'cardRequest.requestPhysical', ...createWithId(physicalRequestBodySchema), collection: 'card_requests', call: requestPhysicalCard,
  apply: (row) => row,
  blank: (a, ctx) => newCardRequest({ ...a, is_physical: true }, ctx),
  confirm: 'row',
});

export function applyRequestStatus(row: CardRequest, status: CardRequest['status'], reason: string | null = null): CardRequest {
  return produce(row, (d) => {
    d.status = status;
    d.rejection_reason = status === 'REJECTED' ? reason : d.rejection_reason;
    if (status === 'APPROVED' || status === 'REJECTED') d.decided_at = d.updated_at;
  });
}

export const cardRequestCancel = defineCommand({
  name: 'cardRequest.cancel', ...rowCommand('card_requests', 'request_id', 'request_uuid').shared, call: cancelCardRequest,
  apply: (row) => applyRequestStatus(row, 'CANCELED'),
  // The server cancels the request's open review with it (the feed brings that row).
  also: cancelsOpenReview((a: { request_id: string }) => a.request_id),
  confirm: 'row',
});
