import { ENTITIES } from '../../../schema/collections.ts';
import type { BillFilter } from '../../../schema/entities/bill.ts';
import type { CardFilter } from '../../../schema/entities/card.ts';
import type { ReimbursementFilter } from '../../../schema/entities/reimbursement.ts';
import type { z } from 'zod';
import { strictDeep } from '../../../schema/api/define-call.ts';
import { REPORT_COLLECTIONS, type ReportCollection } from '../../../schema/reports.ts';
import type { TransactionFilter } from '../../../schema/transaction-query.ts';
import { queryTerms } from '../../../schema/transaction-query.ts';
import { validationMessages } from '../../../schema/errors.ts';
import type { ActingUser } from '../../core/actor.ts';
import { validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { CARDS_WITH_HOLDER, cardFilterConditions } from '../card-lists.ts';
import { COLLECTIONS } from '../collections.ts';
import { reimbursementFilterConditions } from '../reimbursements.ts';
import { escapeLike, filterConditions } from '../transaction-sql.ts';
import { viewerFor } from '../visibility.ts';

/**
 * The rows of a reportable collection a caller may read, as SQL over alias `r`: the table (with
 * what its filter's free text reads), the table filter of the collection (the same fields and
 * meaning as its list endpoint and the worker's engine), and the collection's visibility rule
 * (the change feed's, so a report or an export covers exactly the rows the caller mirrors).
 */
export interface RowSource {
  /** FROM clause, the collection's table aliased `r`. */
  from: string;
  /** Conditions joined with AND (business, live, filters, visibility); values are in `params`. */
  where: string;
  params: unknown[];
}

export type Conditions<F> = (filter: F, params: unknown[]) => string[];

/** The worker's billFilterSchema in SQL (reports, exports and the bill query of domain/bill-query.ts). */
export const billFilterConditions: Conditions<BillFilter> = (f, params) => {
  const conds: string[] = [];
  if (f.statuses?.length) conds.push(`r.status = ANY($${params.push(f.statuses)}::text[])`);
  if (f.vendor_ids?.length) conds.push(`r.vendor_id = ANY($${params.push(f.vendor_ids)}::uuid[])`);
  if (f.entity_ids?.length) conds.push(`r.entity_id = ANY($${params.push(f.entity_ids)}::uuid[])`);
  // The worker's text: the bill's own `searchText` and the names of its `referencedIds` (vendor, entity).
  const text = `lower(concat_ws(' ', r.invoice_number, r.memo,
    (SELECT v.name FROM vendors v WHERE v.id = r.vendor_id), (SELECT e.name FROM business_entities e WHERE e.id = r.entity_id)))`;
  for (const term of queryTerms(f.q)) conds.push(`${text} LIKE $${params.push(`%${escapeLike(term)}%`)}`);
  return conds;
};

const SOURCES: { [C in ReportCollection]: { from: string; conditions: Conditions<never> } } = {
  transactions: { from: 'transactions r', conditions: filterConditions as Conditions<TransactionFilter> },
  reimbursements: { from: 'reimbursements r', conditions: reimbursementFilterConditions as Conditions<ReimbursementFilter> },
  bills: { from: 'bills r', conditions: billFilterConditions },
  cards: { from: CARDS_WITH_HOLDER, conditions: cardFilterConditions as Conditions<CardFilter> },
};

/** The collections' table filters, refusing a field they do not know (a typo must not widen a report or an export). */
const STRICT_FILTERS = Object.fromEntries(
  REPORT_COLLECTIONS.map((c) => [c, strictDeep(ENTITIES[c].query.filter as z.ZodType)]),
) as Record<ReportCollection, z.ZodType>;

/** The collection's table filter, parsed (a field it does not know, or a bad value, is a 422 naming `<at>.<field>`). */
export function parseFilter<C extends ReportCollection>(
  collection: C, filters: unknown, at = 'filters',
): z.output<(typeof ENTITIES)[C]['query']['filter']> {
  const parsed = STRICT_FILTERS[collection].safeParse(filters ?? {});
  if (!parsed.success) {
    const messages = validationMessages(parsed.error, filters);
    throw validationError(Object.fromEntries(Object.entries(messages).map(([k, v]) => [`${at}.${k}`, `${at}.${v}`])));
  }
  return parsed.data as z.output<(typeof ENTITIES)[C]['query']['filter']>;
}

/**
 * The caller's live rows of `collection` matching `filters` (checked against the collection's
 * filter schema here, whatever the caller already checked: a bad filter is a 422 naming it).
 */
export async function rowSource(db: Queryable, user: ActingUser, collection: ReportCollection, filters: unknown): Promise<RowSource> {
  const filter = parseFilter(collection, filters) as never;
  const params: unknown[] = [user.business_id];
  const source = SOURCES[collection];
  const conds = ['r.business_id = $1', 'NOT r.deleted', ...source.conditions(filter, params)];
  const visibility = COLLECTIONS[collection].visibility;
  const viewer = await viewerFor(db, user, [visibility]);
  return { from: source.from, where: conds.join(' AND ') + visibility.where(viewer, 'r', params), params };
}
