import { z } from 'zod';
import { billSortSchema } from '../../schema/entities/bill.ts';
import { cardFilterSchema, cardSortSchema } from '../../schema/entities/card.ts';
import { purchaseOrderStatusSchema } from '../../schema/entities/purchase-order.ts';
import { spendRequestStatusSchema, spendRequestTypeSchema } from '../../schema/entities/spend-request.ts';
import { transactionFilterSchema, transactionSortSchema } from '../../schema/entities/transaction.ts';
import { isAdmin, roleSchema } from '../../schema/roles.ts';
import {
  SAVED_VIEWS_PER_LIST_MAX, unknownStateKeys, type SavedView, type SavedViewBody, type SavedViewList, type SavedViewState,
} from '../../schema/saved-views.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Saved views (issue 32). Who sees what: a person's own views, and the views shared on a list
 * they can open (the people list is the admins' and managers'). Only the owner replaces a view;
 * the owner or an admin deletes a shared one. Anything the caller may not see is 404, so ids of
 * another business or another person's personal views reveal nothing.
 */

/** A status tab's key (the tabs are the pages' own: src/features/<list>/search-params.ts). */
const tabKey = z.string().regex(/^[a-z_]{1,40}$/);

/**
 * Each key's value rule, from the same schema/ pieces the lists' URL schemas use, so a view the
 * server stores is one the list will apply (the pages parse each key again and drop a bad one).
 */
const VALUE_RULES: Record<SavedViewList, Record<string, z.ZodType>> = {
  transactions: { ...transactionFilterSchema.shape, sort: transactionSortSchema },
  reimbursements: { q: z.string().max(200), status: tabKey },
  bills: { q: z.string().max(200), status: tabKey, sort: billSortSchema },
  vendors: { q: z.string().max(200), status: z.enum(['archived', 'all']) },
  cards: { ...cardFilterSchema.shape, view: z.enum(['mine', 'managed']), sort: cardSortSchema },
  team: {
    q: z.string().max(200),
    status: z.enum(['ACTIVE', 'INVITED', 'INVITE_EXPIRED', 'SUSPENDED']),
    role: z.union([roleSchema, z.literal('MANAGER')]),
  },
  purchase_orders: { q: z.string().max(200), status: purchaseOrderStatusSchema },
  requests: { view: z.enum(['mine', 'team']), status: spendRequestStatusSchema, type: spendRequestTypeSchema },
};

/** §5 issues of a state against its list: unknown keys are not allowed, each value must parse. */
export function savedStateIssues(list: SavedViewList, state: SavedViewState): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const key of unknownStateKeys(list, state)) errors[`state.${key}`] = `state.${key} is not allowed`;
  for (const [key, value] of Object.entries(state)) {
    const rule = VALUE_RULES[list][key];
    if (rule && !rule.safeParse(value).success) errors[`state.${key}`] = `state.${key} must be a valid value`;
  }
  return errors;
}

/** Who can open a list's page (the Team page: admins and managers; the rest: everyone). */
export const canSeeList = (list: SavedViewList, user: ActingUser): boolean =>
  list === 'team' ? isAdmin(user) || user.is_manager : true;

const VIEW_SQL = `SELECT v.id::text, v.list, v.name, v.state, v.shared, v.owner_id::text,
    trim(u.first_name || ' ' || u.last_name) AS owner_name, v.created_at, v.updated_at
  FROM saved_views v JOIN spend_users u ON u.id = v.owner_id`;

type ViewRow = {
  id: string; list: SavedViewList; name: string; state: SavedViewState; shared: boolean;
  owner_id: string; owner_name: string; created_at: Date | string; updated_at: Date | string;
};

const iso = (d: Date | string) => new Date(d).toISOString();

function toView(row: ViewRow, user: ActingUser): SavedView {
  const mine = row.owner_id === user.id;
  return {
    id: row.id, list: row.list, name: row.name, state: row.state, shared: row.shared,
    owner_id: row.owner_id, owner_name: row.owner_name, mine,
    can_delete: mine || (row.shared && isAdmin(user)),
    created_at: iso(row.created_at), updated_at: iso(row.updated_at),
  };
}

export async function listSavedViews(db: Queryable, user: ActingUser, list: SavedViewList): Promise<SavedView[]> {
  if (!canSeeList(list, user)) return [];
  const rows = await db.query<ViewRow>(
    `${VIEW_SQL} WHERE v.business_id = $1 AND v.list = $2 AND (v.owner_id = $3 OR v.shared)
     ORDER BY (v.owner_id = $3) DESC, lower(v.name), v.id`,
    [user.business_id, list, user.id],
  );
  return rows.map((r) => toView(r, user));
}

/** The view as the caller may see it, else 404 (another business's, another person's personal one). */
async function visibleView(db: Queryable, user: ActingUser, id: string, lock = false): Promise<ViewRow> {
  const [row] = await db.query<ViewRow>(
    `${VIEW_SQL} WHERE v.id = $1 AND v.business_id = $2 AND (v.owner_id = $3 OR v.shared)${lock ? ' FOR UPDATE OF v' : ''}`,
    [id, user.business_id, user.id],
  );
  if (!row || !canSeeList(row.list, user)) throw new ApiError('REQUEST_7004', 'This saved view was not found.');
  return row;
}

/**
 * Creates the view under the client's id or replaces it. One statement decides which, so two
 * PUTs of one id at once leave one row (the loser of the insert becomes the replace). The
 * conflict branch only updates the caller's own view; when it updates nothing, the id is someone
 * else's: 403 if the caller can see it (a shared view), else 404.
 */
export async function putSavedView(db: Queryable, user: ActingUser, id: string, body: SavedViewBody): Promise<{ view: SavedView; created: boolean }> {
  if (!canSeeList(body.list, user)) throw new ApiError('FORBIDDEN_7003', 'You cannot save views of this list.');
  const issues = savedStateIssues(body.list, body.state);
  if (Object.keys(issues).length > 0) throw validationError(issues);
  const [count] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM saved_views WHERE business_id = $1 AND owner_id = $2 AND list = $3 AND id <> $4',
    [user.business_id, user.id, body.list, id],
  );
  if ((count?.n ?? 0) >= SAVED_VIEWS_PER_LIST_MAX) {
    throw validationError({ name: `You can keep up to ${SAVED_VIEWS_PER_LIST_MAX} views of one list. Delete one first.` });
  }
  const [row] = await db.query<{ id: string; inserted: boolean }>(
    `INSERT INTO saved_views AS v (id, business_id, owner_id, list, name, state, shared)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
     ON CONFLICT (id) DO UPDATE SET list = EXCLUDED.list, name = EXCLUDED.name, state = EXCLUDED.state,
       shared = EXCLUDED.shared, updated_at = now()
     WHERE v.business_id = EXCLUDED.business_id AND v.owner_id = EXCLUDED.owner_id
     RETURNING v.id::text, (xmax = 0) AS inserted`,
    [id, user.business_id, user.id, body.list, body.name, JSON.stringify(body.state), body.shared],
  );
  if (!row) {
    await visibleView(db, user, id);
    throw new ApiError('FORBIDDEN_7003', 'Only the person who saved this view can change it.');
  }
  return { view: toView(await visibleView(db, user, id), user), created: row.inserted };
}

export async function deleteSavedView(db: Queryable, user: ActingUser, id: string): Promise<{ deleted: true; id: string }> {
  const view = toView(await visibleView(db, user, id, true), user);
  if (!view.can_delete) throw new ApiError('FORBIDDEN_7003', 'Only the person who saved this view, or an admin, can delete it.');
  await db.query('DELETE FROM saved_views WHERE id = $1 AND business_id = $2', [id, user.business_id]);
  return { deleted: true, id };
}
