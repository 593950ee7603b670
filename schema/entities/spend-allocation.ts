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
 * Reference data (`refs`). Visibility `allocation`: business-wide roles (canSeeAllTransactions)
 * see every allocation, anyone else those they own or are a member of, and the allocations of
 * their cards. Table and columns: migration 044.
 */
export const spendAllocationEntity = defineReference({
  name: 'spend_allocations', schema: spendAllocationSchema, visibility: 'allocation', searchText: ['name'],
});
