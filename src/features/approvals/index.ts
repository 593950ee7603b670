import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canReviewReimbursements } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import type { NavItem } from '../../lib/routing.ts';
import { PendingApprovalsBadge, useHasWaitingApprovals } from './pending-badge.tsx';
import { parseApprovalsSearch } from './search-params.ts';

/** Signed-in routes: the approvals inbox (with its detail drawer), URL state typed by parseApprovalsSearch. */
export function approvalsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/approvals',
      validateSearch: parseApprovalsSearch,
      ...lazyPage(() => import('./approvals-page.tsx'), 'ApprovalsPage', { title: 'Approvals', className: 'approvals' }),
    }),
  ] as const;
}

/**
 * Shown to reviewers (admins, owners, bookkeepers, managers: `canReviewReimbursements`), and to
 * anyone else while decisions wait for them (a bill's chain names them as a step's approver);
 * "Go to approvals" in the palette comes from this entry. The badge counts what waits.
 */
export const approvalsNav: readonly NavItem[] = [
  { to: '/approvals', label: 'Approvals', visible: canReviewReimbursements, useAlsoVisible: useHasWaitingApprovals, badge: PendingApprovalsBadge },
];
