import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import type { AppStore } from '../../data-access/app-state.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { HOME_PATH } from '../../lib/redirect.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseBillsSearch } from './search-params.ts';

/**
 * Signed-in routes: /bills (the table, the detail drawer, the bulk actions), URL state typed by
 * parseBillsSearch, and the section's inbox, recurring bills, templates and vendor credits.
 * §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers reach them; anyone
 * else typing an address goes home (the server refuses their bill calls anyway).
 */
export function billsRoutes<P extends AnyRoute>(parent: P) {
  const beforeLoad = ({ context }: { context: unknown }) => {
    const user = (context as { store: AppStore }).store.get().session?.user;
    if (!user || !canManageBillPayAccounting(user)) throw redirect({ to: HOME_PATH, replace: true });
  };
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/bills',
      validateSearch: parseBillsSearch,
      beforeLoad,
      ...lazyPage(() => import('./bills-page.tsx'), 'BillsPage', { title: 'Bills', className: 'bills' }),
    }),
    // The section's other pages (BillPayNav): same audience, each its own chunk.
    createRoute({
      getParentRoute: () => parent,
      path: '/bills/inbox',
      beforeLoad,
      ...lazyPage(() => import('./inbox/inbox-page.tsx'), 'BillInboxPage', { title: 'Inbox', className: 'bills' }),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/bills/recurring',
      beforeLoad,
      ...lazyPage(() => import('./extras/recurring-page.tsx'), 'RecurringBillsPage', { title: 'Recurring bills', className: 'bills' }),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/bills/templates',
      beforeLoad,
      ...lazyPage(() => import('./extras/templates-page.tsx'), 'BillTemplatesPage', { title: 'Bill templates', className: 'bills' }),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/bills/credits',
      beforeLoad,
      ...lazyPage(() => import('./extras/credits-page.tsx'), 'VendorCreditsPage', { title: 'Vendor credits', className: 'bills' }),
    }),
  ] as const;
}

/** Shown (and offered as "Go to bills") only to those who manage bill pay. */
export const billsNav: readonly NavItem[] = [{ to: '/bills', label: 'Bills', visible: canManageBillPayAccounting }];

/** "New bill". */
export { billsCommands } from './commands.ts';
