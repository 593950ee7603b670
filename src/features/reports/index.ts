import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseReportsSearch } from './search-params.ts';

/**
 * Issue 12: /reports, for everyone signed in: each person's reports cover what they may see
 * (the mirror holds exactly that), so an employee sees their own spend and an admin the
 * business's. The page and its chart library are one chunk, loaded on first visit.
 */
export function reportsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./reports-page.tsx'), 'ReportsPage', { title: 'Reports', className: 'reports' });
  return [pageRoute(parent, '/reports', page, { search: parseReportsSearch })] as const;
}

export const reportsNav: readonly NavItem[] = [{ to: '/reports', label: 'Reports' }];
