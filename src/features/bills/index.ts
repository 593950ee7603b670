import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import type { AppStore } from '../../data-access/app-state.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { HOME_PATH } from '../../lib/redirect.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseBillsSearch } from './search-params.ts';

/**
 * Signed-in routes: /bills (the table, the detail drawer, the bulk actions), URL state typed by
 * parseBillsSearch. §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers
 * reach it; anyone else typing the address goes home (the server refuses their bill calls anyway).
 */
export function billsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/bills',
      validateSearch: parseBillsSearch,
      beforeLoad: ({ context }) => {
        const user = (context as { store: AppStore }).store.get().session?.user;
        if (!user || !canManageBillPayAccounting(user)) throw redirect({ to: HOME_PATH, replace: true });
      },
      ...lazyPage(() => import('./bills-page.tsx'), 'BillsPage', { title: 'Bills', className: 'bills' }),
    }),
  ] as const;
}

/** Shown (and offered as "Go to bills") only to those who manage bill pay. */
export const billsNav: readonly NavItem[] = [{ to: '/bills', label: 'Bills', visible: canManageBillPayAccounting }];

/** "New bill". */
export { billsCommands } from './commands.ts';
