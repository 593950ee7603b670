import { lazy } from 'react';
import { redirect } from '@tanstack/react-router';
import { whenBooted, type AppStore } from '../../data-access/app-state.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { surfaceRedirect, type SurfaceArea } from '../../lib/surface-guard.ts';

/**
 * Issue 31: the three surfaces beside the main app, each a layout under the root with its own
 * shell (header, account and scope picker, navigation) and pages, all lazy: the first load
 * carries only the route stubs (src/router.tsx) and the guard. Pages are the surface's own (next
 * session); until then each address says what it will hold (surface-pages.ts).
 */

/** A guard for one area: the session of another surface goes to its home, a signed-out visitor to sign-in. */
export function surfaceGuard(area: SurfaceArea) {
  return async ({ context, location }: { context: unknown; location: { href: string } }) => {
    const { store } = context as { store: AppStore };
    await whenBooted(store);
    const to = surfaceRedirect(store.get(), area);
    if (to === '/sign-in') throw redirect({ to, search: { redirect: location.href }, replace: true });
    if (to) throw redirect({ href: to, replace: true });
  };
}

/** A surface's shell with its page, one lazy chunk for the three surfaces. */
export const surfaceShell = lazyPage(() => import('./surface-layout.tsx'), 'SurfaceLayout', { title: 'Ledgerline', className: 'page' });

/** `/onboarding` is the application's old address (§1): it goes to `/application`. */
export function toApplication(): never {
  throw redirect({ href: '/application', replace: true });
}

/**
 * The main app's pieces of issue 31, loaded when first shown: the scope picker (given `onClose`)
 * or the "Acting for" bar. The surfaces' chunk holds them: one chunk keeps the first load's list of
 * chunks short.
 */
export const LazySurfacePart = lazy(() => import('./surface-layout.tsx').then((m) => ({ default: m.MainAppPart })));
