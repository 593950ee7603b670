import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { NavItem } from '../../lib/routing.ts';
import { parseTransactionsSearch } from './search-params.ts';
import { TransactionsPage } from './transactions-page.tsx';

/** Signed-in routes: the transactions list, its URL state typed by parseTransactionsSearch. */
export function transactionsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/transactions',
      validateSearch: parseTransactionsSearch,
      component: TransactionsPage,
    }),
  ] as const;
}

export const transactionsNav: readonly NavItem[] = [{ to: '/transactions', label: 'Transactions' }];

/** Its palette commands (the page adds "Code selected" while rows are selected). */
export { transactionsCommands } from './commands.ts';
