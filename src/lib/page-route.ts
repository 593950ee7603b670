import { createRoute, type AnyRoute, type RouteComponent } from '@tanstack/react-router';
import type { SpendUser } from '../../schema/entities/spend-user.ts';
import { onlyFor } from './route-guard.ts';

/** A route's view: what `lazyPage(...)` (lazy-page.tsx) gives (the page's chunk and its skeleton), or a landing page's component. */
export interface RoutePage {
  component: RouteComponent;
  pendingComponent?: RouteComponent;
}

/**
 * One page of a feature: `path` under the shell's `parent`, the `page` (usually
 * `lazyPage(() => import('./x-page.tsx'), 'XPage', skeleton)`, written in the feature so its chunk
 * stays its own), its URL state typed by `search`, and `allowed` when only some may open it.
 */
export function pageRoute<P extends AnyRoute, const TPath extends string, TSearch = unknown>(
  parent: P,
  path: TPath,
  page: RoutePage,
  { search, allowed }: { search?: (raw: Record<string, unknown>) => TSearch; allowed?: (user: SpendUser) => boolean } = {},
) {
  return createRoute({
    getParentRoute: () => parent,
    path,
    validateSearch: search as (raw: Record<string, unknown>) => TSearch,
    beforeLoad: allowed ? onlyFor(allowed) : undefined,
    ...page,
  });
}
