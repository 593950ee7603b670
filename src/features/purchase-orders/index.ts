import type { AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parsePurchaseOrdersSearch } from './search-params.ts';
import { useHasPurchaseOrders } from './use-has-purchase-orders.ts';

/**
 * Issue 28, signed-in routes: /purchase-orders (the list, "Matching rules" for admins) and
 * /purchase-orders/$poId (lines, receipts, linked bills, Receive items offline, PDF, Close).
 * Not guarded: the mirror holds only the POs the viewer may see (bill managers every one, anyone
 * else their own), and the page says so when there are none.
 */
export function purchaseOrdersRoutes<P extends AnyRoute>(parent: P) {
  const list = lazyPage(() => import('./purchase-orders-page.tsx'), 'PurchaseOrdersPage', { title: 'Purchase orders', className: 'purchase-orders' });
  const one = lazyPage(() => import('./purchase-order-page.tsx'), 'PurchaseOrderPage', { title: 'Purchase order', className: 'page po-page' });
  return [
    pageRoute(parent, '/purchase-orders', list, { search: parsePurchaseOrdersSearch }),
    pageRoute(parent, '/purchase-orders/$poId', one),
  ] as const;
}

/**
 * Bill managers (AP; `mayManageBills` is this rule — roles.ts keeps bill-rules.ts out of the first
 * load), and anyone whose request became a purchase order.
 */
export const purchaseOrdersNav: readonly NavItem[] = [
  { to: '/purchase-orders', label: 'Purchase orders', short: 'POs', visible: canManageBillPayAccounting, useAlsoVisible: useHasPurchaseOrders },
];
