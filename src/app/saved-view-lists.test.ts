import { describe, expect, it } from 'vitest';
import { SAVED_VIEW_LIST_KEYS, SAVED_VIEW_LISTS, type SavedViewList } from '../../schema/saved-views.ts';
import { billsSearchSchema } from '../features/bills/search-params.ts';
import { cardsSearchSchema } from '../features/cards/search-params.ts';
import { purchaseOrdersSearchSchema } from '../features/purchase-orders/search-params.ts';
import { reimbursementsSearchSchema } from '../features/reimbursements/search-params.ts';
import { requestsSearchSchema } from '../features/requests/search-params.ts';
import { teamSearchSchema } from '../features/team/search-params.ts';
import { transactionsSearchSchema } from '../features/transactions/search-params.ts';
import { vendorsSearchSchema } from '../features/vendors/search-params.ts';

/** Each list's own URL search schema: a view keeps only keys the list reads. */
const URL_SCHEMAS: Record<SavedViewList, { shape: Record<string, unknown> }> = {
  transactions: transactionsSearchSchema,
  reimbursements: reimbursementsSearchSchema,
  bills: billsSearchSchema,
  vendors: vendorsSearchSchema,
  cards: cardsSearchSchema,
  team: teamSearchSchema,
  purchase_orders: purchaseOrdersSearchSchema,
  requests: requestsSearchSchema,
};
/** URL keys that place the page (a drawer, a dialog, the page index), never part of a view. */
const PLACE_KEYS = new Set(['open', 'new', 'template', 'receipt', 'page', 'budget', 'location', 'start', 'end', 'trip']);

describe('saved view keys', () => {
  it.each(SAVED_VIEW_LISTS)('%s: the view keys are exactly the list’s filter and sort keys', (list) => {
    const urlKeys = Object.keys(URL_SCHEMAS[list].shape).filter((k) => !PLACE_KEYS.has(k)).sort();
    expect([...SAVED_VIEW_LIST_KEYS[list]].sort()).toEqual(urlKeys);
  });
});
