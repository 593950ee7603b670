import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canReviewReimbursements } from '../../../schema/roles.ts';
import type { NavItem } from '../../lib/routing.ts';
import { ApprovalsPage } from './approvals-page.tsx';
import { PendingApprovalsBadge } from './pending-badge.tsx';
import { parseApprovalsSearch } from './search-params.ts';

/** Signed-in routes: the approvals inbox (with its detail drawer), URL state typed by parseApprovalsSearch. */
export function approvalsRoutes<P extends AnyRoute>(parent: P) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/approvals',
      validateSearch: parseApprovalsSearch,
      component: ApprovalsPage,
    }),
  ] as const;
}

/**
 * Shown to reviewers only (admins, owners, bookkeepers, managers: `canReviewReimbursements`);
 * "Go to approvals" in the palette comes from this entry. The badge counts what waits.
 */
export const approvalsNav: readonly NavItem[] = [
  { to: '/approvals', label: 'Approvals', visible: canReviewReimbursements, badge: PendingApprovalsBadge },
];
