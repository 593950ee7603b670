import { lazyRouteComponent } from '@tanstack/react-router';
import { PageSkeleton, type PageSkeletonProps } from '../components/page-skeleton.tsx';

/** Every lazy page's import, for `preloadLazyPages`. */
const importers: (() => Promise<unknown>)[] = [];

/**
 * A route's page in its own chunk, fetched on the first visit, so the first load carries only
 * the landing page (bench main_js_gzip_kb). Spread into `createRoute`: the router fetches the
 * chunk before it commits a navigation (the previous page stays until then, no flash); a first
 * load straight onto the page shows its skeleton meanwhile, with the page's heading in place.
 * Offline, the service worker serves every chunk from its precache (vite.config.ts
 * globPatterns); a chunk gone after a deploy reloads the page once (lazyRouteComponent).
 */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(importer: () => Promise<M>, exportName: K, skeleton: PageSkeletonProps) {
  importers.push(importer);
  return {
    component: lazyRouteComponent(importer, exportName),
    pendingComponent: function PendingPage() {
      return <PageSkeleton {...skeleton} />;
    },
  };
}

/**
 * Fetches every lazy page now. For a page no service worker controls yet (the first visit: the
 * worker installs but serves only from the next load), so that going offline before a reload
 * still opens every page, as when they were all in the entry. A failed fetch is left to the
 * route, which tries again when visited.
 */
export function preloadLazyPages(): Promise<void> {
  return Promise.allSettled(importers.map((load) => load())).then(() => undefined);
}
