import { createRoute, type AnyRoute } from '@tanstack/react-router';
import type { NavItem } from '../../lib/routing.ts';
import { parseReceiptsSearch } from './search-params.ts';
import { ReceiptsPage } from './receipts-page.tsx';

/** Signed-in routes: the receipts inbox (issue 9 §2). */
export function receiptsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/receipts',
      validateSearch: parseReceiptsSearch,
      component: ReceiptsPage,
    }),
  ] as const;
}

/** "Go to receipts" in the palette comes from this entry. */
export const receiptsNav: readonly NavItem[] = [{ to: '/receipts', label: 'Receipts' }];

/** "Upload receipts". */
export { receiptsCommands } from './commands.ts';
