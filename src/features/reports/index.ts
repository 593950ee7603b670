import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import type { NavItem } from '../../lib/routing.ts';
import { parseReportsSearch } from './report-model.ts';

/**
 * Issue 12: /reports, for everyone signed in: each person's reports cover what they may see
 * (the mirror holds exactly that), so an employee sees their own spend and an admin the
 * business's. The page and its chart library are one chunk, loaded on first visit.
 */
export function reportsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/reports',
      validateSearch: parseReportsSearch,
      ...lazyPage(() => import('./reports-page.tsx'), 'ReportsPage', { title: 'Reports', className: 'reports' }),
    }),
  ] as const;
}

export const reportsNav: readonly NavItem[] = [{ to: '/reports', label: 'Reports' }];
