import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { onlyFor } from '../../lib/route-guard.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseVendorsSearch } from './search-params.ts';

/**
 * Signed-in routes: /vendors (list, detail drawer, forms), URL state typed by parseVendorsSearch.
 * §6 "manage bill pay": only admins, AP clerks (AP_ACCESS) and bookkeepers reach it; anyone else
 * typing the address goes home (the server refuses their vendor writes with 403 anyway).
 */
export function vendorsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./vendors-page.tsx'), 'VendorsPage', { title: 'Vendors', className: 'vendors' });
  const beforeLoad = onlyFor(canManageBillPayAccounting);
  return [createRoute({ getParentRoute: () => parent, path: '/vendors', validateSearch: parseVendorsSearch, beforeLoad, ...page })] as const;
}

/** Shown (and offered as "Go to vendors") only to those who manage bill pay. */
export const vendorsNav: readonly NavItem[] = [{ to: '/vendors', label: 'Vendors', visible: canManageBillPayAccounting }];
