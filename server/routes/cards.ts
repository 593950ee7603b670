import {
  activateCard, bulkLockCards, cancelCardRequest, createCardRequest, favoriteCards, getCard, getPrimaryCard, issueCard, listCardRequests,
  listCards, listFavoriteCards, lockCard, reissueCard, requestPhysicalCard, setPrimaryCard, simulateAuthorization, suspendCard,
  terminateCard, unfavoriteCards, unlockCard, unsuspendCard, updateCard,
} from '../../schema/api/calls-cards.ts';
import type { CardRequestFilter } from '../../schema/entities/card-request.ts';
import type { CardFilter } from '../../schema/entities/card.ts';
import { bulkLock, favoriteCards as starredCards, listCards as listRows, primaryCard, setFavorite, setPrimary } from '../domain/card-lists.ts';
import {
  cancelCardRequest as cancelRequest, createCardRequest as createRequest, listCardRequests as listRequests,
} from '../domain/card-requests.ts';
import { simulatePurchase } from '../domain/card-spend.ts';
import { findCard, issueCard as issue, moveCard, reissueCard as reissue, updateCard as update, type CardMove } from '../domain/cards.ts';
import { visibilityOf } from '../domain/visibility.ts';
import { actorOf, ok, type DomainHandlers, type Handler } from '../http/handler.ts';
import { versionedPatch, visibleRowGet } from './versioned.ts';
import { mailer } from '../http/mail-links.ts';

type MoveCall = typeof lockCard | typeof unlockCard | typeof suspendCard | typeof terminateCard;

/** The plain status moves: POST /cards/:id/<move>, no body. */
const move =
  (m: CardMove): Handler<MoveCall> =>
  async (ctx) =>
    ok(await moveCard(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid, m, new Date(ctx.deps.now())));

/** Cards (issue 10; rules in domain/cards.ts, card-lists.ts, card-spend.ts, card-requests.ts). */
export const cardHandlers = {
  [listCards.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { page_size, start, include_count, sort, ...filter } = ctx.input.query;
    return ok(await listRows(ctx.db, user.business_id, await visibilityOf(ctx.db, user), {
      filter: filter as CardFilter, sort, pageSize: page_size, start, includeCount: include_count === true,
    }));
  },

  [getCard.id]: visibleRowGet('cards', 'card_uuid', findCard),

  [issueCard.id]: async (ctx) => ok(await issue(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [updateCard.id]: versionedPatch('cards', 'card_uuid', async (ctx) =>
    ok(await update(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid, ctx.input.body, new Date(ctx.deps.now())))),

  [activateCard.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    return ok(await moveCard(ctx.db, user, ctx.input.params.card_uuid, 'activate', new Date(ctx.deps.now()), ctx.input.body.last_four));
  },

  [lockCard.id]: move('lock'),
  [unlockCard.id]: move('unlock'),
  [suspendCard.id]: move('suspend'),
  [terminateCard.id]: move('terminate'),

  // DELETE is not idempotency-keyed, so register runs it outside a transaction: it opens one.
  [unsuspendCard.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => moveCard(tx, user, ctx.input.params.card_uuid, 'unsuspend', now)));
  },

  [reissueCard.id]: async (ctx) =>
    ok(await reissue(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid, ctx.input.body?.successor_id, new Date(ctx.deps.now()))),

  [bulkLockCards.id]: async (ctx) => {
    const { card_uuids, lock } = ctx.input.body;
    return ok(await bulkLock(ctx.db, actorOf(ctx).user, card_uuids, lock, new Date(ctx.deps.now())));
  },

  [getPrimaryCard.id]: async (ctx) => ok({ card: await primaryCard(ctx.db, actorOf(ctx).user) }),

  [setPrimaryCard.id]: async (ctx) => ok(await setPrimary(ctx.db, actorOf(ctx).user, ctx.input.body.card_id, new Date(ctx.deps.now()))),

  [listFavoriteCards.id]: async (ctx) => ok({ data: await starredCards(ctx.db, actorOf(ctx).user) }),

  [favoriteCards.id]: async (ctx) => ok(await setFavorite(ctx.db, actorOf(ctx).user, ctx.input.body.card_ids, true, new Date(ctx.deps.now()))),

  // DELETE with a body: opens its own transaction (not idempotency-keyed).
  [unfavoriteCards.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    return ok(await ctx.deps.db.transaction((tx) => setFavorite(tx, user, ctx.input.body.card_ids, false, now)));
  },

  [simulateAuthorization.id]: async (ctx) => {
    // A held charge (issue 24) is mailed to its cardholder in the same transaction.
    return ok(await simulatePurchase(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid, ctx.input.body, () => new Date(ctx.deps.now()), mailer(ctx)));
  },

  [listCardRequests.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const { page_size, start, include_count, ...filter } = ctx.input.query;
    return ok(await listRequests(ctx.db, user.business_id, await visibilityOf(ctx.db, user), {
      filter: filter as CardRequestFilter, pageSize: page_size, start, includeCount: include_count === true,
    }));
  },

  [createCardRequest.id]: async (ctx) => ok(await createRequest(ctx.db, actorOf(ctx).user, ctx.input.body, new Date(ctx.deps.now()))),

  [requestPhysicalCard.id]: async (ctx) =>
    ok(await createRequest(ctx.db, actorOf(ctx).user, { ...ctx.input.body, is_physical: true }, new Date(ctx.deps.now()))),

  [cancelCardRequest.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    const now = new Date(ctx.deps.now());
    const id = ctx.input.params.request_uuid;
    return ok(await ctx.deps.db.transaction(async (tx) => cancelRequest(tx, user, await visibilityOf(tx, user), id, now)));
  },
} satisfies DomainHandlers;
