import { SAVED_VIEW_LIST_KEYS, sameViewState, viewStateOf, type SavedView, type SavedViewList } from '../../../schema/saved-views.ts';

/** Who a shared view of a list reaches, for the share checkbox. */
export const AUDIENCE: Record<SavedViewList, string> = {
  transactions: 'everyone in the business who can see transactions',
  reimbursements: 'everyone in the business who can see reimbursements',
  bills: 'everyone in the business who can see bills',
  vendors: 'everyone in the business who can see vendors',
  cards: 'everyone in the business who can see cards',
  team: 'admins and managers (the people list is theirs)',
  purchase_orders: 'everyone in the business who can see purchase orders',
  requests: 'everyone in the business who can see requests',
};

/**
 * The URL search after applying a view: the list's view keys and the page index are replaced by
 * the view's (§5: a new search starts on the first page); anything else in the URL (an open
 * drawer) stays.
 */
export function searchWithView(list: SavedViewList, current: Record<string, unknown>, view: Pick<SavedView, 'state'>): Record<string, unknown> {
  const keys = new Set<string>([...SAVED_VIEW_LIST_KEYS[list], 'page']);
  const kept = Object.fromEntries(Object.entries(current).filter(([k]) => !keys.has(k)));
  return { ...kept, ...view.state };
}

/** The applied view and whether the filters drifted from it since. */
export function appliedOf(
  list: SavedViewList, views: readonly SavedView[], appliedId: string | null, search: Record<string, unknown>,
): { view: SavedView; modified: boolean } | null {
  const view = views.find((v) => v.id === appliedId);
  if (!view) return null;
  return { view, modified: !sameViewState(view.state, viewStateOf(list, search)) };
}

/** The applied view of a list, kept for the tab's session so it survives moving between pages. */
const appliedKey = (list: SavedViewList) => `ledgerline.saved-view.${list}`;
export function readApplied(list: SavedViewList): string | null {
  try {
    return sessionStorage.getItem(appliedKey(list));
  } catch {
    return null;
  }
}
export function writeApplied(list: SavedViewList, id: string | null): void {
  try {
    if (id) sessionStorage.setItem(appliedKey(list), id);
    else sessionStorage.removeItem(appliedKey(list));
  } catch {
    // Storage refused (private mode): the name shows until the page is left.
  }
}
