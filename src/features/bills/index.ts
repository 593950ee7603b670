import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting, isAdvisor, type Actor } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { onlyFor } from '../../lib/route-guard.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseBillsSearch } from './search-params.ts';

/**
 * Signed-in routes: /bills (the table, the detail drawer, the bulk actions), URL state typed by
 * parseBillsSearch, and the section's inbox, recurring bills, templates and vendor credits.
 * §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers reach them; anyone
 * else typing an address goes home (the server refuses their bill calls anyway). A firm's advisor
 * acting in a client (issue 31) reads its bills too (the `bill_pay` mirror rule gives them every
 * bill); what they may change is the advisor gate's (no Pay: src/lib/advisor-actions.ts).
 */
const seesBills = (user: Actor) => canManageBillPayAccounting(user) || isAdvisor(user);

export function billsRoutes<P extends AnyRoute>(parent: P) {
  const beforeLoad = onlyFor(seesBills);
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

/** Shown (and offered as "Go to bills") only to those who manage bill pay, and to a client's advisors. */
export const billsNav: readonly NavItem[] = [{ to: '/bills', label: 'Bills', visible: seesBills }];

/** "New bill". */
export { billsCommands } from './commands.ts';
