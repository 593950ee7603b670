import { z } from 'zod';
import { csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { byDateThenId, listMatcher, presentIds } from './query-shapes.ts';
import { limitIntervalSchema, MAX_CARD_LIMIT } from './card.ts';
import { moneyOf } from '../money.ts';

/**
 * Issue 28: a spend request — someone asks before spending. Three kinds, each switched by its
 * §3 flag (all default on):
 * - `GENERAL_EXPENSE` (`general_expenses_spend_requests_enabled`): a budget. Approved, it becomes
 *   a virtual card for `user_id` whose limit is `amount` per `interval` (the card carries
 *   `spend_request_id`); when the request names `spend_allocation_id`, the allocation's limit grows
 *   by `amount` instead (and `user_id` becomes a member) — no card.
 * - `PRODUCT_OR_SERVICE` (`product_or_service_spend_requests_enabled`): a purchase from a vendor,
 *   with line items whose sum is `amount`. Approved, it becomes a purchase order (`purchase_order_id`).
 * - `PHYSICAL_CARD` (`physical_card_spend_requests_enabled`): a physical card with `amount` per
 *   `interval` as its limit (`card_id`, SHIPPED).
 *
 * Statuses (schema/procurement-rules.ts): DRAFT → PENDING_APPROVAL → APPROVED → FULFILLED;
 * REJECTED; CANCELED. The decision goes through the approvals inbox (object_type
 * `spend_request`, policy `spend_request`); approving fulfils it in the same transaction, exactly once.
 */
export const SPEND_REQUEST_TYPES = ['GENERAL_EXPENSE', 'PRODUCT_OR_SERVICE', 'PHYSICAL_CARD'] as const;
export const spendRequestTypeSchema = z.enum(SPEND_REQUEST_TYPES);
export type SpendRequestType = z.infer<typeof spendRequestTypeSchema>;

export const SPEND_REQUEST_STATUSES = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FULFILLED', 'REJECTED', 'CANCELED'] as const;
export const spendRequestStatusSchema = z.enum(SPEND_REQUEST_STATUSES);
export type SpendRequestStatus = z.infer<typeof spendRequestStatusSchema>;

/** Money of a request: integer minor units (positive, at most a card's largest limit) of an ISO 4217 currency. */
export const requestMoneySchema = moneyOf(z.number().int().positive().max(MAX_CARD_LIMIT));
export type RequestMoney = z.infer<typeof requestMoneySchema>;

/** Most line items one request (and so one purchase order) carries. */
export const MAX_REQUEST_LINES = 100;
/** The largest quantity one line orders. */
export const MAX_LINE_QUANTITY = 1_000_000;

/** A line of a product/service request (and of the purchase order it becomes). */
export const requestLineSchema = z.object({
  id: uuid,
  description: z.string().min(1).max(500),
  /** Whole units ordered (> 0). */
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY),
  /** Minor units of the request's currency per unit (≥ 0). */
  unit_price: z.number().int().min(0).max(MAX_CARD_LIMIT),
});
export type RequestLine = z.infer<typeof requestLineSchema>;

export const spendRequestSchema = z.object({
  id: uuid, // spend_request_uuid
  /** Who the spend is for: the card is theirs, the request shows in their list. */
  user_id: uuid,
  /** Who asked (the same person, or their manager or a bookkeeper asking for them: §6). */
  requested_by: uuid,
  type: spendRequestTypeSchema,
  status: spendRequestStatusSchema,
  amount: requestMoneySchema,
  /** The card limit's interval (GENERAL_EXPENSE, PHYSICAL_CARD); TOTAL = once. */
  interval: limitIntervalSchema,
  description: z.string().min(1).max(2000),
  vendor_id: uuid.nullable(),
  line_items: z.array(requestLineSchema).max(MAX_REQUEST_LINES),
  /** When it is needed by (ISO date), if said. */
  needed_by: z.iso.date().nullable(),
  /** GENERAL_EXPENSE only: more room in this allocation instead of a new card. */
  spend_allocation_id: uuid.nullable(),
  /** Files attached to the request (quotes, contracts): `POST …/documents`. */
  document_ids: z.array(uuid),
  /** The open or last review (approvals inbox). */
  approval_id: uuid.nullable(),
  rejection_reason: z.string().max(2000).nullable(),
  /** What came of it: the card issued (GENERAL_EXPENSE without allocation, PHYSICAL_CARD) or the purchase order. */
  card_id: uuid.nullable(),
  purchase_order_id: uuid.nullable(),
  submitted_at: isoDateTime.nullable(),
  decided_at: isoDateTime.nullable(),
  fulfilled_at: isoDateTime.nullable(),
  canceled_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type SpendRequest = z.infer<typeof spendRequestSchema>;

const SPEND_REQUEST_SORTS = ['created_desc'] as const;
export type SpendRequestSort = (typeof SPEND_REQUEST_SORTS)[number];

export const spendRequestFilterSchema = z.object({
  q: z.string().max(200).optional(),
  statuses: csv(spendRequestStatusSchema).optional(),
  types: csv(spendRequestTypeSchema).optional(),
  user_ids: csv(z.uuid()).optional(),
});
export type SpendRequestFilter = z.infer<typeof spendRequestFilterSchema>;

const matchesSpendRequestFilter = listMatcher<SpendRequest, SpendRequestFilter>([
  { param: 'statuses', field: 'status' },
  { param: 'types', field: 'type' },
  { param: 'user_ids', field: 'user_id' },
]);

const newestFirst = byDateThenId<SpendRequest>('created_at', 'desc');
const compareSpendRequests = (_sort: SpendRequestSort) => newestFirst;

/**
 * Mirrored (`own`, queried): the requester's list and the approver's inbox read it offline, and a
 * request made offline shows at once, pending. Visibility `spend_request`: the `owner` rule on
 * `user_id` (the person, their managers up the chain, business-wide roles), whoever asked, and the
 * approvers named on its approvals' steps (define-entity.ts). Table `spend_requests` (migration 044).
 */
export const spendRequestEntity = defineEntity({
  name: 'spend_requests',
  schema: spendRequestSchema,
  mirror: { kind: 'own', indexes: [] },
  visibility: 'spend_request',
  searchText: ['description'],
  query: {
    filter: spendRequestFilterSchema, sorts: SPEND_REQUEST_SORTS,
    matches: matchesSpendRequestFilter, compare: compareSpendRequests,
    referencedIds: (r: SpendRequest) => presentIds(r.user_id, r.vendor_id),
  },
  columns: columnsOf(spendRequestSchema, {
    amount: { sql: `jsonb_build_object('amount', r.amount, 'currency', r.currency)` },
    interval: { column: 'limit_interval' },
    created_at: { indexed: true },
  }),
});
