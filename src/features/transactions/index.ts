import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseTransactionsSearch } from './search-params.ts';

/**
 * Signed-in routes: the transactions list, its URL state typed by parseTransactionsSearch. The
 * page (list, filter bar, drawer) is its own chunk (issue 33), so the sign-in page does not parse
 * it; a returning person's service worker serves it from the precache with the shell.
 */
export function transactionsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./transactions-page.tsx'), 'TransactionsPage', { title: 'Transactions', className: 'transactions' });
  return [pageRoute(parent, '/transactions', page, { search: parseTransactionsSearch })] as const;
}

export const transactionsNav: readonly NavItem[] = [{ to: '/transactions', label: 'Transactions' }];

/** Its palette commands (the page adds "Code selected" while rows are selected). */
export { transactionsCommands } from './commands.ts';
