import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { callGroup } from './call-group.ts';
import {
  cardFilterSchema, cardSchema, cardSortSchema, limitAmountSchema, MAX_CARD_LIMIT, limitIntervalSchema, MAX_CARD_CATEGORIES, merchantCategorySchema,
  spendingLimitSchema,
} from '../entities/card.ts';
import { cardRequestFilterSchema, cardRequestSchema } from '../entities/card-request.ts';
import { transactionSchema } from '../entities/transaction.ts';
import { DECLINE_REASONS } from '../card-rules.ts';
import { knownCurrencySchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Cards (issue 10; spec §4, §6, §7 Cards). Reads follow the `owner` rule (a cardholder their
 * cards, a manager their team's, the business-wide roles every card); another business's card,
 * or one the caller may not see, is 404. Moves outside the status machine (schema/card-rules.ts)
 * are 422 naming the card's status; acting without the right (§6) is 403.
 *
 * Offline creates: issuing and requesting take an optional client `id` (as claims do), so a
 * create resent after a lost answer returns the stored row instead of a second card.
 */
const scopes = { scopes: ['default'] } as const;
const lowRisk = { scopes: ['default', 'low-risk'] } as const;
const extension = { scopes: ['default', 'chrome-extension'] } as const;
/** The card calls (under /v1/auth/cards) and the caller's favorites (the browser extension's too). */
const cards = callGroup('/v1/auth/cards', scopes);
const favorites = callGroup('/v1/auth/users/current/favorited_cards', extension);

const cardParams = z.object({ card_uuid: z.uuid() });
const text = (max: number) => z.string().trim().min(1).max(max);
const categories = z.array(merchantCategorySchema).max(MAX_CARD_CATEGORIES);

/** A limit as sent: the per-purchase cap is optional and may not exceed the interval's amount. */
const limitBodySchema = spendingLimitSchema.refine(
  (l) => l.per_transaction === null || l.per_transaction <= l.amount,
  { message: 'per_transaction cannot be more than the limit amount', path: ['per_transaction'] },
);

export const issueCardBodySchema = z.object({
  id: z.uuid().optional(),
  /** The cardholder (a user of the caller's business). */
  user_id: z.uuid(),
  display_name: text(80),
  is_physical: z.boolean().default(false),
  limit: limitBodySchema,
  allowed_categories: categories.default([]),
  department_id: z.uuid().nullable().default(null),
  location_id: z.uuid().nullable().default(null),
  /**
   * Issue 28: the budget the card draws on (live, not archived, not ended: else PROCUREMENT_7005;
   * in the card limit's currency). The cardholder becomes one of its members.
   */
  spend_allocation_id: z.uuid().nullable().optional(),
});
export type IssueCardBody = z.infer<typeof issueCardBodySchema>;

/** PATCH: only the keys present change. */
export const cardPatchSchema = z.object({
  display_name: text(80).optional(),
  limit: limitBodySchema.optional(),
  allowed_categories: categories.optional(),
  department_id: z.uuid().nullable().optional(),
  location_id: z.uuid().nullable().optional(),
});
export type CardPatch = z.infer<typeof cardPatchSchema>;

/** Several cards' write: the cards as stored, and the last change seq written. */
const cardsWrittenSchema = z.object({ data: z.array(cardSchema), change_seq: z.number().int() });

export const MAX_BULK_LOCK = 1000;
const bulkLockBodySchema = z.object({
  card_uuids: z.array(z.uuid()).min(1).max(MAX_BULK_LOCK)
    .refine((ids) => new Set(ids).size === ids.length, 'card_uuids must not repeat a card'),
  lock: z.boolean(),
});

export const cardRequestBodySchema = z.object({
  id: z.uuid().optional(),
  is_physical: z.boolean().default(false),
  amount: limitAmountSchema.positive(),
  currency: knownCurrencySchema,
  interval: limitIntervalSchema,
  reason: text(1000),
});
export type CardRequestBody = z.infer<typeof cardRequestBodySchema>;
/** `request-physical`: the same request, always for a physical card. */
export const physicalRequestBodySchema = cardRequestBodySchema.omit({ is_physical: true });

const favoriteBodySchema = z.object({
  card_ids: z.array(z.uuid()).min(1).max(100).refine((ids) => new Set(ids).size === ids.length, 'card_ids must not repeat a card'),
});

export const simulateBodySchema = z.object({
  /** Integer minor units, > 0. */
  amount: z.number().int().positive().max(MAX_CARD_LIMIT),
  merchant: text(200),
  merchant_category: text(60).default('General'),
  /** The merchant's country, ISO 3166-1 alpha-2 (issue 24: a country new for the card is held). */
  merchant_country: z.string().regex(/^[A-Z]{2}$/, 'merchant_country must be a two-letter ISO 3166-1 country code').optional(),
  /** Defaults to the card's limit currency. */
  currency: knownCurrencySchema.optional(),
});
export const simulateResponseSchema = z.discriminatedUnion('approved', [
  z.object({ approved: z.literal(true), transaction: transactionSchema }),
  z.object({ approved: z.literal(false), decline_reason: z.enum(DECLINE_REASONS), message: z.string() }),
]);

export const listCards = cards('cards.list', 'GET', '', {
  retry: 'paged',
  query: pageQuerySchema.extend(cardFilterSchema.shape).extend({ sort: cardSortSchema.default('name_asc') }),
  response: paginatedSchema(cardSchema),
});

export const getCard = cards('cards.get', 'GET', '/:card_uuid', {
  params: cardParams,
  response: cardSchema,
});

export const issueCard = cards('cards.issue', 'POST', '', {
  body: issueCardBodySchema,
  response: cardSchema,
});

export const updateCard = cards('cards.update', 'PATCH', '/:card_uuid', {
  params: cardParams,
  body: cardPatchSchema,
  response: cardSchema,
});

const noBody = z.object({}).optional();
const cardAction = <Id extends string, B extends z.ZodType = typeof noBody>(id: Id, action: string, body?: B) =>
  cards(id, 'POST', `/:card_uuid/${action}`, { params: cardParams, body: (body ?? noBody) as B, response: cardSchema });

export const activateCard = cardAction('cards.activate', 'activate', z.object({ last_four: z.string().regex(/^\d{4}$/, 'last_four must be 4 digits') }));
export const lockCard = cardAction('cards.lock', 'lock');
export const unlockCard = cardAction('cards.unlock', 'unlock');
export const suspendCard = cardAction('cards.suspend', 'suspend');
export const terminateCard = cardAction('cards.terminate', 'terminate');

/** §7 DELETE rules/suspend-card/{card}: lifts a suspension (SUSPENDED → ACTIVE). */
export const unsuspendCard = defineCall({
  id: 'cards.unsuspend',
  method: 'DELETE',
  path: '/v1/auth/rules/suspend-card/:card_uuid',
  auth: scopes,
  params: cardParams,
  response: cardSchema,
});

/** Terminates the card and issues its successor (new last four, same limits and settings). */
export const reissueCard = cards('cards.reissue', 'POST', '/:card_uuid/reissue', {
  params: cardParams,
  body: z.object({ successor_id: z.uuid().optional() }).optional(),
  response: z.object({ card: cardSchema, successor: cardSchema, change_seq: z.number().int() }),
});

/** Locks or unlocks up to 1,000 cards, all or none: any refusal refuses the whole list. */
export const bulkLockCards = cards('cards.bulkLock', 'POST', '/bulk_lock', {
  body: bulkLockBodySchema,
  response: z.object({ updated: z.number().int(), change_seq: z.number().int() }),
});

/** The caller's primary card (§6 low-risk read), or null. */
export const getPrimaryCard = cards('cards.getPrimary', 'GET', '/primary', {
  auth: lowRisk,
  response: z.object({ card: cardSchema.nullable() }),
});

/** Makes one of the caller's cards their primary (the previous one stops being it). */
export const setPrimaryCard = cards('cards.setPrimary', 'PATCH', '/primary', {
  body: z.object({ card_id: z.uuid() }),
  response: cardsWrittenSchema,
});

export const listFavoriteCards = favorites('cards.favorites', 'GET', '', {
  response: z.object({ data: z.array(cardSchema) }),
});

/** Favoriting adds the cards named, unfavoriting (the same body, DELETE) takes them off. */
const favoriteWrite = <const Id extends string>(id: Id, method: 'POST' | 'DELETE') =>
  favorites(id, method, '', { body: favoriteBodySchema, response: cardsWrittenSchema });
export const favoriteCards = favoriteWrite('cards.favorite', 'POST');
export const unfavoriteCards = favoriteWrite('cards.unfavorite', 'DELETE');

/** A card network's authorization, simulated (demo and tests spend with it). */
export const simulateAuthorization = cards('cards.simulate', 'POST', '/:card_uuid/simulate', {
  params: cardParams,
  body: simulateBodySchema,
  response: simulateResponseSchema,
});

const requestParams = z.object({ request_uuid: z.uuid() });

export const listCardRequests = cards('cardRequests.list', 'GET', '/requests', {
  retry: 'paged',
  query: pageQuerySchema.extend(cardRequestFilterSchema.shape),
  response: paginatedSchema(cardRequestSchema),
});

export const createCardRequest = cards('cardRequests.create', 'POST', '/requests', {
  body: cardRequestBodySchema,
  response: cardRequestSchema,
});

export const requestPhysicalCard = cards('cardRequests.requestPhysical', 'POST', '/request-physical', {
  body: physicalRequestBodySchema,
  response: cardRequestSchema,
});

/** Withdraws a pending request (→ CANCELED, its approval canceled with it). */
export const cancelCardRequest = cards('cardRequests.cancel', 'DELETE', '/requests/:request_uuid', {
  params: requestParams,
  response: cardRequestSchema,
});

export const CARD_CALLS = [
  listCards, getPrimaryCard, setPrimaryCard, listCardRequests, createCardRequest, requestPhysicalCard, cancelCardRequest,
  bulkLockCards, issueCard, getCard, updateCard, activateCard, lockCard, unlockCard, suspendCard, terminateCard,
  unsuspendCard, reissueCard, simulateAuthorization, listFavoriteCards, favoriteCards, unfavoriteCards,
] as const;
