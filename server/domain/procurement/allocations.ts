import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { spendAllocationCreateSchema, spendAllocationPatchSchema } from '../../../schema/api/calls-procurement.ts';
import { allocationEnded, type AllocationWindow } from '../../../schema/card-rules.ts';
import { allocationSpentSql, type SpendAllocation } from '../../../schema/entities/spend-allocation.ts';
import { canCreateSpendAllocations, isAdmin } from '../../../schema/roles.ts';
import type { ActingUser } from '../../core/actor.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { COLLECTIONS, writeMirrored, type MirroredWrite } from '../collections.ts';
import { shownUserSql } from '../hidden-users.ts';

/**
 * Spend allocations (budgets, issue 28): a limit per interval that cards draw on, owned by one
 * person, with members. Admins and managers create them and add members (§6
 * `canCreateSpendAllocations`, else PROCUREMENT_7016); the owner, the creator or an admin edits
 * one. Reads follow the `allocation` visibility rule (domain/visibility.ts): an allocation the
 * caller may not see, or another business's, is 404. Every write stamps the row with a change seq
 * (writeMirrored); what changes `spent`, `left` and `card_ids` from other tables re-stamps it in
 * migration 046's triggers.
 */

export type AllocationCreate = z.output<typeof spendAllocationCreateSchema>;
export type AllocationPatch = z.output<typeof spendAllocationPatchSchema>;

const ALLOCATIONS = COLLECTIONS.spend_allocations;
export const ALLOCATION_DOC = ALLOCATIONS.docSql;
const NOT_FOUND = 'No such budget.';

/** The UTC day of `now` (YYYY-MM-DD): end dates are inclusive UTC days. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** 422 PROCUREMENT_7016 unless the caller is an admin or a manager (before any lookup). */
export function assertMayCreateAllocations(user: ActingUser): void {
  if (!canCreateSpendAllocations(user)) throw new ApiError('PROCUREMENT_7016');
}

/** One allocation the caller may see (FOR UPDATE inside writes), else 404. */
export async function findAllocation(db: Queryable, user: ActingUser, id: string, lock = false): Promise<SpendAllocation> {
  const params: unknown[] = [user.business_id, id];
  const visible = ALLOCATIONS.visibility.where({ user, team: null }, 'r', params);
  const rows = await db.query<{ doc: SpendAllocation }>(
    `SELECT ${ALLOCATION_DOC} AS doc FROM spend_allocations r
      WHERE r.business_id = $1 AND r.id = $2 AND NOT r.deleted${visible}${lock ? ' FOR UPDATE' : ''}`,
    params,
  );
  if (!rows[0]) throw new ApiError('REQUEST_7004', NOT_FOUND);
  return rows[0].doc;
}

/**
 * Every id is a live user of the business (404 naming `field` otherwise); the ids de-duplicated
 * in the order given.
 */
async function liveUsers(db: Queryable, businessId: string, ids: readonly string[], field: string): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await db.query<{ id: string }>(
    `SELECT id::text FROM spend_users WHERE business_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted AND ${shownUserSql()}`,
    [businessId, unique],
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing) throw new ApiError('REQUEST_7004', `${field}: ${missing} is not a user of this business.`);
  return unique;
}

function assertEndDate(endDate: string | null | undefined, now: Date): void {
  if (endDate && endDate < utcDay(now)) throw validationError({ end_date: 'end_date cannot be in the past.' });
}

/** POST /spend-allocations: the owner (default the caller) and members must be live users of the business. */
export async function createAllocation(tx: Queryable, user: ActingUser, body: AllocationCreate, now: Date): Promise<SpendAllocation> {
  assertMayCreateAllocations(user);
  assertEndDate(body.end_date, now);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const [owner] = await liveUsers(tx, user.business_id, [body.owner_id ?? user.id], 'owner_id');
    const members = await liveUsers(tx, user.business_id, body.member_ids ?? [], 'member_ids');
    const id = randomUUID();
    await tx.query(
      `INSERT INTO spend_allocations (id, business_id, name, description, owner_id, member_ids, limit_amount, limit_currency,
                                      limit_interval, end_date, created_by, created_at, updated_at, change_seq)
       VALUES ($1, $2, $3, $4, $5, $6::uuid[], $7, $8, $9, $10, $11, $12, $12, $13)`,
      [id, user.business_id, body.name, body.description ?? null, owner, members, body.limit.amount, body.limit.currency,
        body.limit.interval, body.end_date ?? null, user.id, now.toISOString(), seqs.first],
    );
    return findAllocation(tx, user, id);
  });
}

/** May the caller edit it: its owner, its creator or an admin (others who see it: 403). */
function assertMayEdit(user: ActingUser, a: SpendAllocation): void {
  if (isAdmin(user) || a.owner_id === user.id || a.created_by === user.id) return;
  throw new ApiError('FORBIDDEN_7003', 'Only the budget\'s owner, the person who created it or an admin can change it.');
}

/** A new limit currency while live cards draw on it in another: their spend would stop counting. */
async function assertCardsCurrency(tx: Queryable, a: SpendAllocation, currency: string): Promise<void> {
  const rows = await tx.query(
    `SELECT 1 FROM cards WHERE spend_allocation_id = $1 AND NOT deleted AND status <> 'TERMINATED' AND limit_currency <> $2 LIMIT 1`,
    [a.id, currency],
  );
  if (rows.length > 0) {
    throw validationError({ 'limit.currency': `Cards on this budget spend in ${a.limit.currency}: its limit stays in ${a.limit.currency}.` });
  }
}

/** PATCH: the keys present change; the row is stamped with the write's seq. */
export async function updateAllocation(tx: Queryable, user: ActingUser, id: string, patch: AllocationPatch, now: Date): Promise<SpendAllocation> {
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const a = await findAllocation(tx, user, id, true);
    assertMayEdit(user, a);
    if (patch.end_date !== undefined && patch.end_date !== a.end_date) assertEndDate(patch.end_date, now);
    const [owner] = patch.owner_id ? await liveUsers(tx, user.business_id, [patch.owner_id], 'owner_id') : [a.owner_id];
    const limit = patch.limit ?? a.limit;
    if (limit.currency !== a.limit.currency) await assertCardsCurrency(tx, a, limit.currency);
    await tx.query(
      `UPDATE spend_allocations SET name = $3, description = $4, owner_id = $5, limit_amount = $6, limit_currency = $7,
              limit_interval = $8, end_date = $9, archived = $10, updated_at = $11, change_seq = $12
        WHERE business_id = $1 AND id = $2`,
      [user.business_id, id, patch.name ?? a.name, patch.description === undefined ? a.description : patch.description, owner,
        limit.amount, limit.currency, limit.interval, patch.end_date === undefined ? a.end_date : patch.end_date,
        patch.archived ?? a.archived, now.toISOString(), seqs.first],
    );
    return findAllocation(tx, user, id);
  });
}

/** Adds members (live users of the business; each once) and stamps the row with `seq`. */
async function addMembers(tx: Queryable, a: SpendAllocation, userIds: readonly string[], seq: number, now: Date): Promise<void> {
  const members = [...new Set([...a.member_ids, ...userIds])];
  await tx.query(
    'UPDATE spend_allocations SET member_ids = $3::uuid[], updated_at = $4, change_seq = $5 WHERE business_id = $1 AND id = $2',
    [a.business_id, a.id, members, now.toISOString(), seq],
  );
}

/** PUT /spend-allocation/:id/add-users: admins and managers (7016 before any lookup), on a budget they see. */
export async function addAllocationUsers(
  tx: Queryable, user: ActingUser, id: string, userIds: readonly string[], now: Date,
): Promise<SpendAllocation> {
  assertMayCreateAllocations(user);
  return writeMirrored(tx, user.business_id, 1, async ({ seqs }) => {
    const a = await findAllocation(tx, user, id, true);
    await addMembers(tx, a, await liveUsers(tx, user.business_id, userIds, 'user_ids'), seqs.first, now);
    return findAllocation(tx, user, id);
  });
}

/**
 * A card issued on an allocation (cards.issue with `spend_allocation_id`, inside its write): the
 * allocation must be one the issuer sees (else 404), live and not ended or archived
 * (PROCUREMENT_7005), in the card limit's currency (422); the cardholder becomes a member. The
 * allocation is stamped here; the card's insert re-stamps it (migration 046) with its card_ids.
 */
export async function joinAllocation(
  tx: Queryable, user: ActingUser, w: MirroredWrite, card: { spend_allocation_id: string; currency: string; holder: string }, now: Date,
): Promise<void> {
  const a = await findAllocation(tx, user, card.spend_allocation_id, true);
  if (allocationEnded(a, utcDay(now))) throw new ApiError('PROCUREMENT_7005');
  if (a.limit.currency !== card.currency) {
    throw validationError({ spend_allocation_id: `This budget is in ${a.limit.currency}: a card on it must have its limit in ${a.limit.currency}.` });
  }
  const seq = (await w.reserve(1)).first;
  await addMembers(tx, a, [card.holder], seq, now);
}

/**
 * The allocation a card draws on, with `lock` locked for an authorization (the caller holds the
 * business lock and the card's row lock, in that order, so racing purchases on its cards queue here), with
 * what its cards spent this interval as of `now` (`allocationSpentSql`, the doc's own sum). A
 * deleted allocation reads as archived: its cards decline.
 */
export async function allocationForSpend(
  tx: Queryable, businessId: string, id: string, now: Date, lock: boolean,
): Promise<{ allocation: AllocationWindow; spent: number }> {
  const [locked] = await tx.query<{ limit_amount: number; limit_currency: string; end_date: string | null; archived: boolean }>(
    `SELECT limit_amount, limit_currency, to_char(end_date, 'YYYY-MM-DD') AS end_date, archived OR deleted AS archived
       FROM spend_allocations WHERE business_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [businessId, id],
  );
  if (!locked) throw new ApiError('REQUEST_7004', NOT_FOUND);
  const [sum] = await tx.query<{ spent: number }>(
    `SELECT ${allocationSpentSql('$3::timestamptz')}::int8 AS spent FROM spend_allocations r WHERE r.business_id = $1 AND r.id = $2`,
    [businessId, id, now.toISOString()],
  );
  return {
    allocation: { limit: { amount: Number(locked.limit_amount), currency: locked.limit_currency }, end_date: locked.end_date, archived: locked.archived },
    spent: Number(sum?.spent ?? 0),
  };
}
