import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';
import { limitAmountSchema, limitIntervalSchema } from './card.ts';
import { knownCurrencySchema } from '../money.ts';

/**
 * Issue 10: an employee asks for a card (virtual, or a physical one by `request-physical`) with
 * the limit they need and why. Creating one opens a PENDING approval (object_type
 * `card_request`) in the approvals inbox; approving it issues the card (`card_id`), rejecting
 * it records the reason; the requester may withdraw a pending request (DELETE → CANCELED).
 */
export const CARD_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELED'] as const;
export const cardRequestStatusSchema = z.enum(CARD_REQUEST_STATUSES);
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

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v), z.array(item));

export const CARD_REQUEST_SORTS = ['created_desc'] as const;
export type CardRequestSort = (typeof CARD_REQUEST_SORTS)[number];

export const cardRequestFilterSchema = z.object({
  q: z.string().max(200).optional(),
  statuses: csv(cardRequestStatusSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
});
export type CardRequestFilter = z.infer<typeof cardRequestFilterSchema>;

export function matchesCardRequestFilter(r: CardRequest, f: CardRequestFilter): boolean {
  if (f.statuses?.length && !f.statuses.includes(r.status)) return false;
  if (f.user_ids?.length && !f.user_ids.includes(r.user_id)) return false;
  return true;
}

export function compareCardRequests(_sort: CardRequestSort) {
  return (a: CardRequest, b: CardRequest) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Table `card_requests` (migration 012). */
const cardRequestColumns: ColumnMap<CardRequest> = {
  id: { type: 'uuid', indexed: true },
  user_id: { type: 'uuid' },
  is_physical: { type: 'bool' },
  amount: { type: 'bigint' },
  currency: { type: 'text' },
  interval: { type: 'text', column: 'limit_interval' },
  reason: { type: 'text' },
  status: { type: 'text' },
  card_id: { type: 'uuid' },
  rejection_reason: { type: 'text' },
  decided_by: { type: 'uuid' },
  decided_at: { type: 'timestamptz' },
  created_at: { type: 'timestamptz', indexed: true },
  ...MIRRORED_COLUMNS,
};

export const cardRequestEntity = defineEntity({
  name: 'card_requests',
  schema: cardRequestSchema,
  idField: 'id',
  mirror: { kind: 'own', indexes: [] },
  visibility: 'owner',
  searchText: ['reason'],
  query: {
    filter: cardRequestFilterSchema,
    sorts: CARD_REQUEST_SORTS,
    matches: matchesCardRequestFilter,
    compare: compareCardRequests,
    referencedIds: (r: CardRequest) => [r.user_id],
  },
  columns: cardRequestColumns,
});
