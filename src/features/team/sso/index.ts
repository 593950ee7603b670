import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../../schema/roles.ts';
import type { AppStore } from '../../../data-access/app-state.ts';
import { lazyPage } from '../../../lib/lazy-page.tsx';
import { HOME_PATH } from '../../../lib/redirect.ts';

/** Signed-in route /team/sso (issue 14): identity providers per email domain, admins only. */
export function ssoRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/team/sso',
      beforeLoad: ({ context }) => {
        const user = (context as { store: AppStore }).store.get().session?.user;
        if (!user || !isAdmin(user)) throw redirect({ to: HOME_PATH, replace: true });
      },
      ...lazyPage(() => import('./sso-page.tsx'), 'SsoPage', { title: 'Single sign-on', className: 'team-page' }),
    }),
  ] as const;
}
