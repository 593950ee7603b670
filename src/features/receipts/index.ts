import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseReceiptsSearch } from './search-params.ts';

/** Signed-in routes: the receipts inbox (issue 9 §2). */
export function receiptsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./receipts-page.tsx'), 'ReceiptsPage', { title: 'Receipts', className: 'page receipts-inbox' });
  return [pageRoute(parent, '/receipts', page, { search: parseReceiptsSearch })] as const;
}

/** "Go to receipts" in the palette comes from this entry. */
export const receiptsNav: readonly NavItem[] = [{ to: '/receipts', label: 'Receipts' }];

/** "Upload receipts". */
export { receiptsCommands } from './commands.ts';
