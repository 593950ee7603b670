import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin, isManager } from '../../../schema/roles.ts';
import type { SpendUser } from '../../../schema/entities/spend-user.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseTeamSearch } from './search-params.ts';

/** §6: admins manage everyone; managers see and invite their own team. */
export const canSeeTeam = (u: SpendUser) => isAdmin(u) || isManager(u);

/** Signed-in route /team (issue 14): people and invites. Departments, locations and entities are src/features/org. */
export function teamRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./people-page.tsx'), 'PeoplePage', { title: 'Team', className: 'team-page' });
  return [pageRoute(parent, '/team', page, { search: parseTeamSearch, allowed: canSeeTeam })] as const;
}

export const teamNav: readonly NavItem[] = [{ to: '/team', label: 'Team', visible: canSeeTeam }];
export { orgRoutes } from './org/index.ts';
export { ssoRoutes } from './sso/index.ts';
