import { z } from 'zod';
import type { SpendRequestFilter, SpendRequestSort, SpendRequestStatus, SpendRequestType } from '../../../schema/entities/spend-request.ts';
import { parseEachParam } from '../../lib/search-params.ts';

/**
 * /requests' URL state, flat strings (§5): whose requests (`view`: mine, the default and never
 * written, or team), the Status and Type filters, the request open in the drawer and the New
 * request dialog (`new=request`, also with `budget` naming the budget to ask more of).
 */
/**
 * The statuses and types, written out so the first load (the router imports this file) does not
 * carry the entity's definition; search-params.test.ts checks them against the entity.
 */
const STATUSES = ['DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'FULFILLED', 'REJECTED', 'CANCELED'] as const satisfies readonly SpendRequestStatus[];
const TYPES = ['GENERAL_EXPENSE', 'PRODUCT_OR_SERVICE', 'PHYSICAL_CARD'] as const satisfies readonly SpendRequestType[];

export const requestsSearchSchema = z.object({
  view: z.enum(['mine', 'team']).optional(),
  status: z.enum(STATUSES).optional(),
  type: z.enum(TYPES).optional(),
  open: z.uuid().optional(),
  new: z.enum(['request']).optional(),
  budget: z.uuid().optional(),
});
export type RequestsSearch = z.infer<typeof requestsSearchSchema>;
export const parseRequestsSearch = (raw: Record<string, unknown>): RequestsSearch => parseEachParam(requestsSearchSchema, raw, { view: 'mine' });

/** /budgets: the budget open in its drawer. */
export const budgetsSearchSchema = z.object({ open: z.uuid().optional() });
export type BudgetsSearch = z.infer<typeof budgetsSearchSchema>;
export const parseBudgetsSearch = (raw: Record<string, unknown>): BudgetsSearch => parseEachParam(budgetsSearchSchema, raw);

export const REQUEST_SORT: SpendRequestSort = 'created_desc';

/** No one: the team filter of a viewer with nobody to see (an empty list would mean everyone). */
export const NOBODY = '00000000-0000-0000-0000-000000000000';

/**
 * The worker's filter: the viewer's own requests (`user_id` = them), or the team's (the people
 * they can see but themselves), narrowed by status and type.
 */
export function requestFilter(search: Pick<RequestsSearch, 'view' | 'status' | 'type'>, viewerId: string, team: readonly string[]): SpendRequestFilter {
  const others = team.filter((id) => id !== viewerId);
  const filter: SpendRequestFilter = { user_ids: search.view === 'team' ? (others.length > 0 ? others : [NOBODY]) : [viewerId] };
  if (search.status) filter.statuses = [search.status];
  if (search.type) filter.types = [search.type];
  return filter;
}

export const requestQueryKey = (filter: SpendRequestFilter) =>
  JSON.stringify([REQUEST_SORT, filter.user_ids ?? [], filter.statuses ?? [], filter.types ?? []]);
