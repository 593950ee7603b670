import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseTransfersSearch } from './search-params.ts';

/**
 * Issue 30, Treasury, admins only (the server's calls are admin-only, TREASURY_7001; the mirror
 * holds wallet rows for admins only): /treasury (accounts, balance chart, activity, investment,
 * wallet settings), /treasury/transfers (list, new transfer, cancel), /treasury/automations
 * (sweeps and top-ups). Balances and transfers read offline from the mirror.
 */
export function treasuryRoutes<P extends AnyRoute>(parent: P) {
  const accounts = lazyPage(() => import('./accounts-page.tsx'), 'TreasuryAccountsPage', { title: 'Treasury', className: 'page treasury' });
  const transfers = lazyPage(() => import('./transfers-page.tsx'), 'TreasuryTransfersPage', { title: 'Transfers', className: 'page treasury' });
  const automations = lazyPage(() => import('./automations-page.tsx'), 'TreasuryAutomationsPage', { title: 'Automations', className: 'page treasury' });
  return [
    pageRoute(parent, '/treasury', accounts, { allowed: isAdmin }),
    pageRoute(parent, '/treasury/transfers', transfers, { allowed: isAdmin, search: parseTransfersSearch }),
    pageRoute(parent, '/treasury/automations', automations, { allowed: isAdmin }),
  ] as const;
}

export const treasuryNav: readonly NavItem[] = [{ to: '/treasury', label: 'Treasury', visible: isAdmin }];
