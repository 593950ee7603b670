import { createRoute, redirect, type AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../../schema/roles.ts';
import type { AppStore } from '../../../data-access/app-state.ts';
import { lazyPage } from '../../../lib/lazy-page.tsx';
import { HOME_PATH } from '../../../lib/redirect.ts';

/** Signed-in routes /team/departments, /team/locations, /team/entities (issue 14): admins only. */
export function orgRoutes<P extends AnyRoute>(parent: P) {
  const adminOnly = ({ context }: { context: unknown }) => {
    const user = (context as { store: AppStore }).store.get().session?.user;
    if (!user || !isAdmin(user)) throw redirect({ to: HOME_PATH, replace: true });
  };
  return [
    createRoute({ getParentRoute: () => parent, path: '/team/departments', beforeLoad: adminOnly,
      ...lazyPage(() => import('./org-pages.tsx'), 'DepartmentsPage', { title: 'Departments', className: 'team-page' }) }),
    createRoute({ getParentRoute: () => parent, path: '/team/locations', beforeLoad: adminOnly,
      ...lazyPage(() => import('./org-pages.tsx'), 'LocationsPage', { title: 'Locations', className: 'team-page' }) }),
    createRoute({ getParentRoute: () => parent, path: '/team/entities', beforeLoad: adminOnly,
      ...lazyPage(() => import('./org-pages.tsx'), 'EntitiesPage', { title: 'Entities', className: 'team-page' }) }),
  ] as const;
}
