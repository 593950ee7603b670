import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { limitIntervalSchema, MAX_CARD_LIMIT } from './card.ts';
import { knownCurrencySchema } from '../money.ts';

/**
 * Issue 28: a spend allocation (a budget): a limit per interval that cards draw on. Created by
 * admins and managers (§6 `canCreateSpendAllocations`), owned by one person, with members
 * (`PUT /v1/auth/spend-allocation/{id}/add-users`). A card issued on an allocation
 * (`spend_allocation_id` on the card) spends from both its own limit and the allocation's:
 * `simulate` declines a purchase that would take the allocation past its limit this interval
 * (`SPEND_ALLOCATION_EXCEEDED`). After `end_date` (inclusive, UTC) its cards decline.
 *
 * `spent` is the allocation's cards' spend (PENDING and CLEARED, refunds netted) since the
 * interval began, in the limit's currency; `left` = max(0, limit − spent). Both are computed by
 * the feed's SQL and re-stamped when a card of the allocation spends, so what is left shows offline.
 */
export const spendAllocationLimitSchema = z.object({
  amount: z.number().int().min(0).max(MAX_CARD_LIMIT),
  currency: knownCurrencySchema,
  interval: limitIntervalSchema,
});
export type SpendAllocationLimit = z.infer<typeof spendAllocationLimitSchema>;

export const spendAllocationSchema = z.object({
  id: uuid, // spend_allocation_id
  name: z.string().min(1).max(120),
  description: z.string().max(2000).nullable(),
  owner_id: uuid,
  member_ids: z.array(uuid),
  limit: spendAllocationLimitSchema,
  /** Last day it can be spent from (ISO date), or open-ended. */
  end_date: z.iso.date().nullable(),
  spent: z.number().int(),
  left: z.number().int().min(0),
  /** Live cards drawing on it. */
  card_ids: z.array(uuid),
  archived: z.boolean(),
  created_by: uuid,
  created_at: isoDateTime,
  ...mirroredFields,
});
export type SpendAllocation = z.infer<typeof spendAllocationSchema>;

/**
 * Where the allocation's current interval began, as SQL over the row `r` (UTC; the ISO week from
 * Monday; TOTAL from the epoch): schema/card-rules.ts `intervalStart`. `now` is SQL for the moment
 * (the feed's `now()`; the server's authorizations and the rollover job pass their clock).
 */
export const allocationIntervalStartSql = (now: string) => `CASE r.limit_interval
    WHEN 'DAILY' THEN date_trunc('day', ${now} AT TIME ZONE 'UTC')
    WHEN 'WEEKLY' THEN date_trunc('week', ${now} AT TIME ZONE 'UTC')
    WHEN 'MONTHLY' THEN date_trunc('month', ${now} AT TIME ZONE 'UTC')
    WHEN 'YEARLY' THEN date_trunc('year', ${now} AT TIME ZONE 'UTC')
    ELSE timestamp '1970-01-01' END AT TIME ZONE 'UTC'`;

/** The spend of the allocation's cards this interval as of `now` (PENDING and CLEARED, refunds netted, the limit's currency). */
export const allocationSpentSql = (now: string) => `(SELECT coalesce(sum(t.amount), 0) FROM cards c JOIN transactions t ON t.card_id = c.id
    WHERE c.spend_allocation_id = r.id AND NOT t.deleted AND t.state IN ('PENDING', 'CLEARED')
      AND t.currency = r.limit_currency AND t.occurred_at >= ${allocationIntervalStartSql(now)} AND t.occurred_at <= ${now})`;

/** The spend of the allocation's cards this interval (PENDING and CLEARED, refunds netted, the limit's currency). */
export const ALLOCATION_SPENT_SQL = allocationSpentSql('now()');

/**
 * Reference data (`refs`). Visibility `allocation`: business-wide roles (canSeeAllTransactions)
 * see every allocation, anyone else those they own or are a member of, and the allocations of
 * their cards. Table `spend_allocations` (migration 044); `spent` and `left` are computed, and a
 * card transaction of the allocation re-stamps it so the feed carries what is left; so does a new
 * interval (month, quarter, year…): the rollover job (server/domain/procurement/allocation-rollover.ts)
 * re-stamps each allocation once when its interval has begun since its last stamp.
 */
export const spendAllocationEntity = defineReference({
  name: 'spend_allocations', schema: spendAllocationSchema, visibility: 'allocation', searchText: ['name'],
  columns: {
    limit: { sql: `jsonb_build_object('amount', r.limit_amount, 'currency', r.limit_currency, 'interval', r.limit_interval)` },
    spent: { sql: ALLOCATION_SPENT_SQL },
    left: { sql: `greatest(0, r.limit_amount - ${ALLOCATION_SPENT_SQL})` },
    card_ids: {
      sql: `(SELECT coalesce(array_agg(c.id ORDER BY c.created_at, c.id), '{}') FROM cards c
              WHERE c.spend_allocation_id = r.id AND NOT c.deleted AND c.status <> 'TERMINATED')`,
    },
  },
});
