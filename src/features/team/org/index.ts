import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../../schema/roles.ts';
import { lazyPage } from '../../../lib/lazy-page.tsx';
import { pageRoute } from '../../../lib/page-route.ts';

/** Signed-in routes /team/departments, /team/locations, /team/entities (issue 14): admins only. */
export function orgRoutes<P extends AnyRoute>(parent: P) {
  const adminOnly = { allowed: isAdmin };
  return [
    pageRoute(parent, '/team/departments', lazyPage(() => import('./org-pages.tsx'), 'DepartmentsPage', { title: 'Departments', className: 'team-page' }), adminOnly),
    pageRoute(parent, '/team/locations', lazyPage(() => import('./org-pages.tsx'), 'LocationsPage', { title: 'Locations', className: 'team-page' }), adminOnly),
    pageRoute(parent, '/team/entities', lazyPage(() => import('./org-pages.tsx'), 'EntitiesPage', { title: 'Entities', className: 'team-page' }), adminOnly),
  ] as const;
}
