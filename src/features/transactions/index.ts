import type { AnyRoute } from '@tanstack/react-router';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseTransactionsSearch } from './search-params.ts';
import { TransactionsPage } from './transactions-page.tsx';

/** Signed-in routes: the transactions list, its URL state typed by parseTransactionsSearch. */
export function transactionsRoutes<P extends AnyRoute>(parent: P) {
  return [pageRoute(parent, '/transactions', { component: TransactionsPage }, { search: parseTransactionsSearch })] as const;
}

export const transactionsNav: readonly NavItem[] = [{ to: '/transactions', label: 'Transactions' }];

/** Its palette commands (the page adds "Code selected" while rows are selected). */
export { transactionsCommands } from './commands.ts';
