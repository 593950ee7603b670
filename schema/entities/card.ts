import { z } from 'zod';
import { boolParam, csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { byDateThenId, listMatcher, presentIds } from './query-shapes.ts';
import { knownCurrencySchema } from '../money.ts';

/**
 * Issue 10: a corporate card. The server keeps no card number at all: `last_four` and a
 * simulated network token (never sent) are all there is. The status machine is in
 * schema/card-rules.ts.
 */
export const CARD_STATUSES = ['REQUESTED', 'SHIPPED', 'ACTIVE', 'LOCKED', 'SUSPENDED', 'TERMINATED'] as const;
const cardStatusSchema = z.enum(CARD_STATUSES);
export type CardStatus = z.infer<typeof cardStatusSchema>;

export const LIMIT_INTERVALS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY', 'TOTAL'] as const;
export const limitIntervalSchema = z.enum(LIMIT_INTERVALS);
export type LimitInterval = z.infer<typeof limitIntervalSchema>;

/**
 * The largest limit a card may carry, in minor units (10 million in a two-decimal currency):
 * anything above is a typo, not a policy.
 */
export const MAX_CARD_LIMIT = 1_000_000_000;
/** Limits are integer minor units (no fractions of a cent), never negative, never absurd. */
export const limitAmountSchema = z.number().int().min(0).max(MAX_CARD_LIMIT);

export const spendingLimitSchema = z.object({
  /** Integer minor units of `currency` the card may spend per `interval` (0 blocks spending). */
  amount: limitAmountSchema,
  currency: knownCurrencySchema,
  interval: limitIntervalSchema,
  /** Optional cap on one purchase, in the same minor units. */
  per_transaction: limitAmountSchema.positive().nullable().default(null),
});
export type SpendingLimit = z.infer<typeof spendingLimitSchema>;

/** A merchant category a card may be restricted to (the transaction's `merchant_category`). */
export const merchantCategorySchema = z.string().trim().min(1).max(60);
export const MAX_CARD_CATEGORIES = 50;

export const cardSchema = z.object({
  id: uuid, // card_uuid
  user_id: uuid,
  display_name: z.string().min(1).max(80),
  /** Null only while REQUESTED: the number is assigned when the card is issued. */
  last_four: z.string().regex(/^\d{4}$/).nullable(),
  is_physical: z.boolean(),
  status: cardStatusSchema,
  limit: spendingLimitSchema,
  /** Empty: any merchant category. */
  allowed_categories: z.array(merchantCategorySchema).max(MAX_CARD_CATEGORIES).default([]),
  department_id: uuid.nullable().default(null),
  location_id: uuid.nullable().default(null),
  /** Expiry month, YYYY-MM (null while REQUESTED). */
  expires: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).nullable(),
  /** The cardholder's primary card (at most one live card per user). */
  is_primary: z.boolean().default(false),
  /** Starred by the cardholder (favourites: `/users/current/favorited_cards`). */
  is_favorite: z.boolean().default(false),
  /** Reissue: the card this one replaced, and the card that replaced this one. */
  replaces_id: uuid.nullable().default(null),
  replaced_by_id: uuid.nullable().default(null),
  /** Issue 28: the spend request this card came of (a GENERAL_EXPENSE request's card), if any. */
  spend_request_id: uuid.nullable().default(null),
  /** Issue 28: the budget (spend allocation) this card draws on, if any: its purchases count against both limits. */
  spend_allocation_id: uuid.nullable().default(null),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type Card = z.infer<typeof cardSchema>;

const CARD_SORTS = ['name_asc', 'created_desc', 'limit_desc'] as const;
export const cardSortSchema = z.enum(CARD_SORTS);
export type CardSort = z.infer<typeof cardSortSchema>;

export const cardFilterSchema = z.object({
  /** Free text over the card's name, last four and the cardholder's name. */
  q: z.string().max(200).optional(),
  statuses: csv(cardStatusSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
  department_ids: csv(z.uuid()).optional(),
  is_physical: boolParam.optional(),
});
export type CardFilter = z.infer<typeof cardFilterSchema>;

const matchesCardLists = listMatcher<Card, CardFilter>([
  { param: 'statuses', field: 'status' },
  { param: 'user_ids', field: 'user_id' },
  { param: 'department_ids', field: 'department_id' },
]);

function matchesCardFilter(c: Card, f: CardFilter): boolean {
  return matchesCardLists(c, f) && (f.is_physical === undefined || c.is_physical === f.is_physical);
}

function compareCards(sort: CardSort) {
  const byName = (a: Card, b: Card) => {
    const x = a.display_name.toLowerCase();
    const y = b.display_name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const newest = byDateThenId<Card>('created_at', 'desc');
  switch (sort) {
    case 'name_asc':
      return byName;
    case 'created_desc':
      return newest;
    case 'limit_desc':
      return (a: Card, b: Card) => b.limit.amount - a.limit.amount || byName(a, b);
  }
}

const referencedIds = (c: Card) => presentIds(c.user_id, c.department_id, c.location_id);

export const cardEntity = defineEntity({
  name: 'cards',
  schema: cardSchema,
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  // The server's list matches the same fields (server/domain/cards.ts).
  searchText: ['display_name', 'last_four'],
  query: { filter: cardFilterSchema, sorts: CARD_SORTS, matches: matchesCardFilter, compare: compareCards, referencedIds },
  /** Table `cards` (migrations 001, 012): the limit is four columns, sent as one object. */
  columns: columnsOf(cardSchema, {
    user_id: { indexed: true },
    limit: {
      sql: `jsonb_build_object('amount', r.limit_amount, 'currency', r.limit_currency, 'interval', r.limit_interval,
      'per_transaction', r.per_transaction_limit)`,
    },
    created_at: { indexed: true },
  }),
});

/** "••1234", or null while the card is requested (no number yet). */
export const lastFourText = (card: Pick<Card, 'last_four'>): string | null => (card.last_four ? `••${card.last_four}` : null);

/** "Travel ••1234" (or the name alone before a number is assigned): every screen, and reports, name a card so. */
export function cardName(card: Pick<Card, 'display_name' | 'last_four'>): string {
  const four = lastFourText(card);
  return four ? `${card.display_name} ${four}` : card.display_name;
}
