import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseCardsSearch } from './search-params.ts';

/** Signed-in routes: /cards (my cards, the managed grid, the detail drawer), URL state typed by parseCardsSearch. */
export function cardsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./cards-page.tsx'), 'CardsPage', { title: 'Cards', className: 'cards-page' });
  return [pageRoute(parent, '/cards', page, { search: parseCardsSearch })] as const;
}

/** "Go to cards" in the palette comes from this entry (every user has cards to see or request). */
export const cardsNav: readonly NavItem[] = [{ to: '/cards', label: 'Cards' }];

/** "Request a card", "Issue card". */
export { cardsCommands } from './commands.ts';
