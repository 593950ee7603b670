import type { SpendRequest, SpendRequestType } from '../../../schema/entities/spend-request.ts';
import { SPEND_REQUEST_TYPE_FLAGS, spendRequestErrors } from '../../../schema/procurement-rules.ts';
import { canRequestSpendForOthers, isBookkeeper, isCardholder, isSelfOrInReportingChain } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { featureFlagsOf } from '../../auth/settings.ts';
import { COLLECTIONS } from '../collections.ts';
import { reportingTeam } from '../visibility.ts';
import { shownUserSql } from '../hidden-users.ts';

/**
 * Issue 28: what the server checks of a spend request before it is stored or submitted, beyond
 * the call's zod schema (amounts are already positive integers there): its type's §3 flag
 * (PROCUREMENT_7001), §6 who it may be for (PROCUREMENT_7002), the field rules of
 * schema/procurement-rules.ts (`spendRequestErrors`, 422 by field), a live vendor of the business
 * (PROCUREMENT_7004) and a live budget the caller may see (PROCUREMENT_7005; another business's
 * or an invisible one is 404).
 */

/** "Today" for `needed_by`: the earliest calendar date anywhere (UTC−12), so a date is past only once it is past everywhere. */
export const neededByToday = (now: Date) => new Date(now.getTime() - 12 * 3_600_000).toISOString().slice(0, 10);

/** A budget's last day is inclusive, in UTC. */
const utcToday = (now: Date) => now.toISOString().slice(0, 10);

const TYPE_WORDS: Record<SpendRequestType, string> = {
  GENERAL_EXPENSE: 'General expense requests are',
  PRODUCT_OR_SERVICE: 'Product and service requests are',
  PHYSICAL_CARD: 'Physical card requests are',
};

/** The request type's flag is on for the business, else 422 PROCUREMENT_7001 naming the type. */
export async function assertTypeEnabled(db: Queryable, businessId: string, type: SpendRequestType): Promise<void> {
  const flags = await featureFlagsOf(db, businessId);
  if (!flags[SPEND_REQUEST_TYPE_FLAGS[type]]) {
    throw new ApiError('PROCUREMENT_7001', `${TYPE_WORDS[type]} turned off for this business. An admin can turn them on.`);
  }
}

/**
 * §6 "request spend for others: manager or bookkeeper": anyone asks for themselves; a bookkeeper
 * for anyone of the business; a manager for their reporting team (direct and indirect reports);
 * anyone else, or a manager for someone outside their team, 403 PROCUREMENT_7002. A target who
 * is not a live user of the caller's business is 404 (after the role check, so an employee
 * learns nothing about ids).
 */
export async function assertMayRequestFor(db: Queryable, user: ActingUser, targetId: string): Promise<void> {
  if (targetId === user.id) return;
  if (isCardholder(user) || !canRequestSpendForOthers(user)) {
    throw new ApiError('PROCUREMENT_7002', 'You can request spend only for yourself. Managers request for their team, bookkeepers for anyone.');
  }
  const [target] = await db.query(`SELECT 1 FROM spend_users WHERE business_id = $1 AND id = $2 AND NOT deleted AND ${shownUserSql()}`, [user.business_id, targetId]);
  if (!target) throw new ApiError('REQUEST_7004', 'The person this request is for is not a user of this business.');
  if (isBookkeeper(user)) return;
  const inTeam = (await reportingTeam(db, user)).includes(targetId);
  if (!isSelfOrInReportingChain({ ...user, acting_user_is_in_reporting_chain: inTeam }, targetId)) {
    throw new ApiError('PROCUREMENT_7002', 'You can request spend for people in your reporting team only.');
  }
}

/** The vendor is a live (not deleted, not archived, not merged away) vendor of the business, else 422 PROCUREMENT_7004. */
export async function assertVendor(db: Queryable, businessId: string, vendorId: string): Promise<void> {
  const [vendor] = await db.query<{ status: string }>(
    'SELECT status FROM vendors WHERE business_id = $1 AND id = $2 AND NOT deleted AND merged_into_id IS NULL',
    [businessId, vendorId],
  );
  if (!vendor) throw new ApiError('PROCUREMENT_7004', undefined, { vendor_id: 'That vendor is not one of this business\'s vendors.' });
  if (vendor.status !== 'ACTIVE') {
    throw new ApiError('PROCUREMENT_7004', 'That vendor is archived: restore it before ordering from it.', { vendor_id: 'That vendor is archived.' });
  }
}

export type AllocationFacts = { id: string; limit_amount: number; limit_currency: string; limit_interval: string; member_ids: string[] };

/**
 * A budget the caller may see (the `allocation` visibility rule: business-wide roles, its owner,
 * creator, members and cardholders on it), else 404; archived or past its end date → 422
 * PROCUREMENT_7005. `lock` takes its row FOR UPDATE (the approving transaction adds room).
 */
export async function findOpenAllocation(db: Queryable, user: ActingUser | null, businessId: string, id: string, now: Date, lock = false): Promise<AllocationFacts> {
  const params: unknown[] = [businessId, id];
  const visible = user ? COLLECTIONS.spend_allocations.visibility.where({ user, team: null }, 'r', params) : '';
  const [row] = await db.query<AllocationFacts & { archived: boolean; end_date: string | null }>(
    `SELECT r.id::text, r.limit_amount, r.limit_currency, r.limit_interval, r.member_ids::text[] AS member_ids, r.archived,
            to_char(r.end_date, 'YYYY-MM-DD') AS end_date
       FROM spend_allocations r WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visible}${lock ? ' FOR UPDATE OF r' : ''}`,
    params,
  );
  if (!row) throw new ApiError('REQUEST_7004', 'That budget was not found.');
  if (row.archived) throw new ApiError('PROCUREMENT_7005', 'That budget is archived: it cannot take more requests.');
  if (row.end_date && row.end_date < utcToday(now)) throw new ApiError('PROCUREMENT_7005', `That budget ended on ${row.end_date}: it cannot take more requests.`);
  return { ...row, limit_amount: Number(row.limit_amount) };
}

type Checked = Pick<SpendRequest, 'type' | 'amount' | 'vendor_id' | 'line_items' | 'spend_allocation_id' | 'needed_by'>;

/**
 * Every check of a request's fields as it would be stored: the field rules (422 by field), then
 * the vendor and the budget (which must be in the request's currency). `user` is the caller,
 * whose sight of the budget counts.
 */
export async function checkRequestFields(db: Queryable, user: ActingUser, r: Checked, now: Date): Promise<void> {
  const errors = spendRequestErrors(r, neededByToday(now));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (r.vendor_id) await assertVendor(db, user.business_id, r.vendor_id);
  if (r.spend_allocation_id) {
    const allocation = await findOpenAllocation(db, user, user.business_id, r.spend_allocation_id, now);
    if (allocation.limit_currency !== r.amount.currency) {
      throw validationError({ 'amount.currency': `This budget is in ${allocation.limit_currency}: ask for more room in ${allocation.limit_currency}.` });
    }
  }
}
