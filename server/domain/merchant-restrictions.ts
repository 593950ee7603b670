import { authorizeBusiness, normalizeBlockedCategories, type DeclineReason, type Purchase } from '../../schema/card-rules.ts';
import type { MerchantRestrictions } from '../../schema/api/calls-business.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Issue 29: the business's merchant restrictions (`businesses.blocked_merchant_categories`,
 * migration 055): the categories every card is refused at. Read by the card authorization
 * (domain/card-spend.ts) before any card rule, set by admins through `admin.merchantRestrictions.put`.
 */

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export async function readMerchantRestrictions(db: Queryable, businessId: string): Promise<MerchantRestrictions> {
  const rows = await db.query<{ blocked: string[] | null; at: unknown }>(
    'SELECT blocked_merchant_categories AS blocked, merchant_restrictions_updated_at AS at FROM businesses WHERE id = $1', [businessId],
  );
  return { blocked_merchant_categories: rows[0]?.blocked ?? [], updated_at: iso(rows[0]?.at) };
}

/** Replaces the list (normalised: trimmed, no case-blind repeats, sorted). */
export async function writeMerchantRestrictions(db: Queryable, businessId: string, categories: readonly string[], now: Date): Promise<MerchantRestrictions> {
  const rows = await db.query<{ blocked: string[]; at: unknown }>(
    `UPDATE businesses SET blocked_merchant_categories = $2::text[], merchant_restrictions_updated_at = $3 WHERE id = $1
     RETURNING blocked_merchant_categories AS blocked, merchant_restrictions_updated_at AS at`,
    [businessId, normalizeBlockedCategories(categories), now.toISOString()],
  );
  return { blocked_merchant_categories: rows[0]!.blocked, updated_at: iso(rows[0]!.at) };
}

/** The business rule's decision on a purchase (null: the business allows it; the card then decides). */
export async function businessDecline(db: Queryable, businessId: string, purchase: Purchase): Promise<DeclineReason | null> {
  return authorizeBusiness(await readMerchantRestrictions(db, businessId), purchase);
}
