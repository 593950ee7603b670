import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import type { NavItem } from '../../lib/routing.ts';
import { parseTravelSearch } from './search-params.ts';

/**
 * Issue 27, signed-in routes: /travel (the trips list and the New trip dialog),
 * /travel/trips/$tripId (the trip: itinerary, spend, suggestions; reads offline) and
 * /travel/trips/$tripId/book (flight and hotel search and booking; online only).
 */
export function travelRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/travel',
      validateSearch: parseTravelSearch,
      ...lazyPage(() => import('./travel-page.tsx'), 'TravelPage', { title: 'Travel', className: 'travel' }),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/travel/trips/$tripId',
      ...lazyPage(() => import('./trip-page.tsx'), 'TripPage', { title: 'Trip', className: 'page trip-page' }),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/travel/trips/$tripId/book',
      ...lazyPage(() => import('./book-page.tsx'), 'BookPage', { title: 'Book travel', className: 'page book-page' }),
    }),
  ] as const;
}

/** "Go to travel" in the palette comes from this entry; every member can plan a trip. */
export const travelNav: readonly NavItem[] = [{ to: '/travel', label: 'Travel' }];

/** "Plan a trip". */
export { travelCommands } from './commands.ts';
