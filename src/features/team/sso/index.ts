import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../../schema/roles.ts';
import { lazyPage } from '../../../lib/lazy-page.tsx';
import { pageRoute } from '../../../lib/page-route.ts';

/** Signed-in route /team/sso (issue 14): identity providers per email domain, admins only. */
export function ssoRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./sso-page.tsx'), 'SsoPage', { title: 'Single sign-on', className: 'team-page' });
  return [pageRoute(parent, '/team/sso', page, { allowed: isAdmin })] as const;
}
