import { z } from 'zod';

/**
 * Saved views (issue 32, §7 "saved views (PUT and DELETE by id)"): a named copy of one list's URL
 * search state (§5: flat strings, arrays comma-joined, empty values stripped), personal or shared
 * with everyone in the business who can open that list. Light on purpose (no entity schemas): the
 * list pages' Views menu imports it. Each key's value rules live with the list (its search schema
 * in src/features/<list>/search-params.ts, and on the server `server/domain/saved-views.ts`, which
 * checks the values against the same schema/ pieces); src/app/saved-view-lists.test.ts holds
 * the keys here to each list's own URL search schema.
 */

/**
 * The lists with a Views menu and the URL keys a view keeps for each. Keys that open a drawer or
 * a dialog (`open`, `new`, `template`, …) and the page index are left out: a view is a filter and
 * a sort, not a place on the page.
 */
export const SAVED_VIEW_LIST_KEYS = {
  transactions: [
    'q', 'user_ids', 'card_ids', 'department_ids', 'location_ids', 'gl_account_ids', 'merchant', 'states', 'currency',
    'amount_min', 'amount_max', 'from', 'to', 'missing_coding', 'missing_receipt', 'held', 'sort',
  ],
  reimbursements: ['q', 'status'],
  bills: ['q', 'status', 'sort'],
  vendors: ['q', 'status'],
  cards: ['view', 'q', 'statuses', 'user_ids', 'department_ids', 'is_physical', 'sort'],
  team: ['q', 'status', 'role'],
  purchase_orders: ['q', 'status'],
  requests: ['view', 'status', 'type'],
} as const satisfies Record<string, readonly string[]>;

export type SavedViewList = keyof typeof SAVED_VIEW_LIST_KEYS;
export const SAVED_VIEW_LISTS = Object.keys(SAVED_VIEW_LIST_KEYS) as [SavedViewList, ...SavedViewList[]];
export const savedViewListSchema = z.enum(SAVED_VIEW_LISTS);

/** The list's page, for the "open" link and the menu's copy. */
export const SAVED_VIEW_LIST_PATHS: Record<SavedViewList, string> = {
  transactions: '/transactions',
  reimbursements: '/reimbursements',
  bills: '/bills',
  vendors: '/vendors',
  cards: '/cards',
  team: '/team',
  purchase_orders: '/purchase-orders',
  requests: '/requests',
};

export const SAVED_VIEW_NAME_MAX = 80;
/** A person's own views on one list; shared views of others do not count against it. */
export const SAVED_VIEWS_PER_LIST_MAX = 50;
const VALUE_MAX = 2000;

/** The saved URL state: flat strings as the URL holds them. Keys are checked per list by `savedStateIssues`. */
export const savedViewStateSchema = z.record(z.string().max(40), z.string().min(1).max(VALUE_MAX));
export type SavedViewState = z.infer<typeof savedViewStateSchema>;

export const savedViewSchema = z.object({
  id: z.uuid(),
  list: savedViewListSchema,
  name: z.string(),
  state: savedViewStateSchema,
  shared: z.boolean(),
  owner_id: z.uuid(),
  owner_name: z.string(),
  /** The caller owns it (may edit, share and delete it). */
  mine: z.boolean(),
  /** The caller may delete it (the owner, or an admin for a shared view). */
  can_delete: z.boolean(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewBodySchema = z.object({
  list: savedViewListSchema,
  name: z.string().trim().min(1).max(SAVED_VIEW_NAME_MAX),
  state: savedViewStateSchema,
  shared: z.boolean(),
});
export type SavedViewBody = z.infer<typeof savedViewBodySchema>;

/** Keys of `state` the list does not keep: each is a '{path} is not allowed' issue. */
export function unknownStateKeys(list: SavedViewList, state: SavedViewState): string[] {
  const known = new Set<string>(SAVED_VIEW_LIST_KEYS[list]);
  return Object.keys(state).filter((k) => !known.has(k));
}

/**
 * The part of a list's URL search a view keeps, as the URL writes it (§5: arrays comma-joined,
 * empty values dropped): what "Save current view" stores and what "modified" compares.
 */
export function viewStateOf(list: SavedViewList, search: Record<string, unknown>): SavedViewState {
  const out: SavedViewState = {};
  for (const key of SAVED_VIEW_LIST_KEYS[list]) {
    const v = search[key];
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out[key] = v.map(String).join(',');
      continue;
    }
    out[key] = String(v);
  }
  return out;
}

/** Same state whatever the key order. */
export function sameViewState(a: SavedViewState, b: SavedViewState): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
