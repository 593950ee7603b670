import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { onlyFor } from '../../lib/route-guard.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseBillsSearch } from './search-params.ts';

/**
 * Signed-in routes: /bills (the table, the detail drawer, the bulk actions), URL state typed by
 * parseBillsSearch, and the section's inbox, recurring bills, templates and vendor credits.
 * §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers reach them; anyone
 * else typing an address goes home (the server refuses their bill calls anyway).
 */
export function billsRoutes<P extends AnyRoute>(parent: P) {
  const beforeLoad = onlyFor(canManageBillPayAccounting);
  const getParentRoute = () => parent;
  const page = (title: string) => ({ title, className: 'bills' });
  return [
    createRoute({ getParentRoute, path: '/bills', validateSearch: parseBillsSearch, beforeLoad, ...lazyPage(() => import('./bills-page.tsx'), 'BillsPage', page('Bills')) }),
    // The section's other pages (BillPayNav): same audience, each its own chunk.
    createRoute({ getParentRoute, path: '/bills/inbox', beforeLoad, ...lazyPage(() => import('./inbox/inbox-page.tsx'), 'BillInboxPage', page('Inbox')) }),
    createRoute({ getParentRoute, path: '/bills/recurring', beforeLoad, ...lazyPage(() => import('./extras/recurring-page.tsx'), 'RecurringBillsPage', page('Recurring bills')) }),
    createRoute({ getParentRoute, path: '/bills/templates', beforeLoad, ...lazyPage(() => import('./extras/templates-page.tsx'), 'BillTemplatesPage', page('Bill templates')) }),
    createRoute({ getParentRoute, path: '/bills/credits', beforeLoad, ...lazyPage(() => import('./extras/credits-page.tsx'), 'VendorCreditsPage', page('Vendor credits')) }),
  ] as const;
}

/** Shown (and offered as "Go to bills") only to those who manage bill pay. */
export const billsNav: readonly NavItem[] = [{ to: '/bills', label: 'Bills', visible: canManageBillPayAccounting }];

/** "New bill". */
export { billsCommands } from './commands.ts';
