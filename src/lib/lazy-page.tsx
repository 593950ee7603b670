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

/** A lazy part that is not a page (the signed-in shell, router.tsx): fetched with the pages by `preloadLazyPages`. */
export function preloadWith<T>(importer: () => Promise<T>): () => Promise<T> {
  importers.push(importer);
  return importer;
}

/**
 * Fetches every lazy page, one chunk at a time, each after `pause()` (an idle moment: main.tsx),
 * so the preload never runs as one long main-thread task (issue 33: a phone's CPU). For a page no
 * service worker controls yet (the first visit: the worker installs but serves only from the next
 * load), so that going offline before a reload still opens every page, as when they were all in
 * the entry. A failed fetch is left to the route, which tries again when visited.
 */
export async function preloadLazyPages(pause: () => Promise<void> = () => Promise.resolve()): Promise<void> {
  for (const load of importers) {
    await pause();
    await load().catch(() => undefined);
  }
}
