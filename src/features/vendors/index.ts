import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import type { AppStore } from '../../data-access/app-state.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { HOME_PATH } from '../../lib/redirect.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseVendorsSearch } from './search-params.ts';

/**
 * Signed-in routes: /vendors (list, detail drawer, forms), URL state typed by parseVendorsSearch.
 * §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers reach it; anyone else
 * typing the address goes home (the server refuses their vendor writes with 403 anyway).
 */
export function vendorsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/vendors',
      validateSearch: parseVendorsSearch,
      beforeLoad: ({ context }) => {
        const user = (context as { store: AppStore }).store.get().session?.user;
        if (!user || !canManageBillPayAccounting(user)) throw redirect({ to: HOME_PATH, replace: true });
      },
      ...lazyPage(() => import('./vendors-page.tsx'), 'VendorsPage', { title: 'Vendors', className: 'vendors' }),
    }),
  ] as const;
}

/** Shown (and offered as "Go to vendors") only to those who manage bill pay. */
export const vendorsNav: readonly NavItem[] = [{ to: '/vendors', label: 'Vendors', visible: canManageBillPayAccounting }];
