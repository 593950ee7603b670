import type { AnyRoute } from '@tanstack/react-router';
import { canCreateSpendAllocations } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseBudgetsSearch, parseRequestsSearch } from './search-params.ts';
import { useHasBudgets } from './use-has-budgets.ts';

/**
 * Issue 28, signed-in routes: /requests (my spend requests and, for managers, bookkeepers and
 * admins, the team's; the New request dialog; the request's drawer) and /budgets (the spend
 * allocations the viewer sees, what is left of each, offline too). Both pages are lazy.
 */
export function requestsRoutes<P extends AnyRoute>(parent: P) {
  const requests = lazyPage(() => import('./requests-page.tsx'), 'RequestsPage', { title: 'Requests', className: 'requests-page' });
  const budgets = lazyPage(() => import('./budgets-page.tsx'), 'BudgetsPage', { title: 'Budgets', className: 'budgets-page' });
  return [
    pageRoute(parent, '/requests', requests, { search: parseRequestsSearch }),
    pageRoute(parent, '/budgets', budgets, { search: parseBudgetsSearch }),
  ] as const;
}

/**
 * "Requests" for everyone; "Budgets" for those who may create one (admins, managers) and anyone
 * who sees at least one (an owner, a member, a business-wide role).
 */
export const requestsNav: readonly NavItem[] = [
  { to: '/requests', label: 'Requests' },
  { to: '/budgets', label: 'Budgets', visible: canCreateSpendAllocations, useAlsoVisible: useHasBudgets },
];

/** "New spend request". */
export { requestsCommands } from './commands.ts';
