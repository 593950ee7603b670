import type { Vendor } from '../../schema/entities/vendor.ts';
import type { ActingUser } from '../core/actor.ts';
import type { Queryable } from '../db/db.ts';
import { COLLECTIONS } from './collections.ts';
import { pageByIndex, type IndexPage, type IndexRequest } from './page-index.ts';
import { vendorListConditions } from './vendor-bulk.ts';
import { viewerFor } from './visibility.ts';

/**
 * Issue 32, §7 Vendors `POST /pagination`: the vendors list (`vendors.list`: every member reads the
 * business's live vendors, its visibility rule; status and words as that list narrows them) by
 * page index, in its order (name case-insensitively, then id).
 */
export async function vendorsByIndex(
  db: Queryable, user: ActingUser, q: { status: Vendor['status'] | 'ALL'; q?: string | undefined }, req: IndexRequest,
): Promise<IndexPage<Vendor>> {
  const { docSql, sortKey, visibility } = COLLECTIONS.vendors;
  const params: unknown[] = [user.business_id];
  let where = 'r.business_id = $1 AND NOT r.deleted';
  where += visibility.where(await viewerFor(db, user, [visibility]), 'r', params);
  where += vendorListConditions(q, params);
  return pageByIndex<Vendor>(db, { from: 'vendors r', doc: docSql, where, params, orderBy: `${sortKey}, r.id` }, req);
}
