import type { AnyRoute } from '@tanstack/react-router';
import { canReviewReimbursements, isAdmin } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { PendingApprovalsBadge, useHasWaitingApprovals } from './pending-badge.tsx';
import { parseApprovalsSearch } from './search-params.ts';
import { parsePolicySearch } from './policy-types.ts';

/**
 * Signed-in routes: the approvals inbox (with its detail drawer), URL state typed by
 * parseApprovalsSearch; and (issue 25, six types since issue 29) the approval policies, admins only (the server's
 * `admin.approvalPolicies.*` calls are admin-only too).
 */
export function approvalsRoutes<P extends AnyRoute>(parent: P) {
  const inbox = lazyPage(() => import('./approvals-page.tsx'), 'ApprovalsPage', { title: 'Approvals', className: 'approvals' });
  const policy = lazyPage(() => import('./approval-policy-page.tsx'), 'ApprovalPolicyPage', { title: 'Approval policies', className: 'page', narrow: true });
  return [
    pageRoute(parent, '/approvals', inbox, { search: parseApprovalsSearch }),
    // Issue 29: ?type= picks one of the six policy types (bill by default, as before).
    pageRoute(parent, '/approvals/policy', policy, { allowed: isAdmin, search: parsePolicySearch }),
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
