import { z } from 'zod';
import { csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { byDateThenId, listMatcher } from './query-shapes.ts';
import { limitAmountSchema, limitIntervalSchema } from './card.ts';
import { knownCurrencySchema } from '../money.ts';

/**
 * Issue 10: an employee asks for a card (virtual, or a physical one by `request-physical`) with
 * the limit they need and why. Creating one opens a PENDING approval (object_type
 * `card_request`) in the approvals inbox; approving it issues the card (`card_id`), rejecting
 * it records the reason; the requester may withdraw a pending request (DELETE → CANCELED).
 */
const CARD_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED'] as const;
const cardRequestStatusSchema = z.enum(CARD_REQUEST_STATUSES);
export type CardRequestStatus = z.infer<typeof cardRequestStatusSchema>;

export const cardRequestSchema = z.object({
  id: uuid,
  /** The requester: the card is issued to them. */
  user_id: uuid,
  is_physical: z.boolean(),
  /** Integer minor units per `interval`. */
  amount: limitAmountSchema.positive(),
  currency: knownCurrencySchema,
  interval: limitIntervalSchema,
  reason: z.string().min(1).max(1000),
  status: cardRequestStatusSchema,
  /** The card issued on approval. */
  card_id: uuid.nullable(),
  rejection_reason: z.string().max(2000).nullable(),
  decided_by: uuid.nullable(),
  decided_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type CardRequest = z.infer<typeof cardRequestSchema>;

const CARD_REQUEST_SORTS = ['created_desc'] as const;
export type CardRequestSort = (typeof CARD_REQUEST_SORTS)[number];

export const cardRequestFilterSchema = z.object({
  q: z.string().max(200).optional(),
  statuses: csv(cardRequestStatusSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
});
export type CardRequestFilter = z.infer<typeof cardRequestFilterSchema>;

const matchesCardRequestFilter = listMatcher<CardRequest, CardRequestFilter>([
  { param: 'statuses', field: 'status' },
  { param: 'user_ids', field: 'user_id' },
]);

const newestFirst = byDateThenId<CardRequest>('created_at', 'desc');
const compareCardRequests = (_sort: CardRequestSort) => newestFirst;

export const cardRequestEntity = defineEntity({
  name: 'card_requests',
  schema: cardRequestSchema,
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  searchText: ['reason'],
  query: {
    filter: cardRequestFilterSchema, sorts: CARD_REQUEST_SORTS,
    matches: matchesCardRequestFilter, compare: compareCardRequests, referencedIds: (r: CardRequest) => [r.user_id],
  },
  /** Table `card_requests` (migration 012). */
  columns: columnsOf(cardRequestSchema, { interval: { column: 'limit_interval' }, created_at: { indexed: true } }),
});
