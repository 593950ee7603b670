import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canSeeAllTransactions } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { MissingItemsBadge, useHasMissingItems } from './use-missing-items.tsx';
import { parsePoliciesSearch } from './search-params.ts';
import { WIZARD_LINK_PATH } from './wizard-link.ts';

export { captureWizardLink } from './wizard-link.ts';

/**
 * Issue 29, signed-in routes: /missing-items (the wizard: everyone, offline from the mirror) and
 * /policies (expense policies and compliance: admins write, the business-wide readers read;
 * Settings links to it).
 */
export function policiesRoutes<P extends AnyRoute>(parent: P) {
  const wizard = lazyPage(() => import('./missing-items-page.tsx'), 'MissingItemsPage', { title: 'Missing items', className: 'page missing-page', narrow: true });
  const policies = lazyPage(() => import('./policies-page.tsx'), 'PoliciesPage', { title: 'Expense policies', className: 'page policies-page' });
  return [
    pageRoute(parent, '/missing-items', wizard),
    pageRoute(parent, '/policies', policies, { search: parsePoliciesSearch, allowed: canSeeAllTransactions }),
  ] as const;
}

/**
 * Issue 29, outside the signed-in shell: where the reminder mail's link lands (main.tsx
 * `captureWizardLink` took its token off the address first). Receipts only, no sign-in.
 */
export function policiesLinkRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./wizard-link-page.tsx'), 'WizardLinkPage', { title: 'Add your receipts', className: 'page missing-page', narrow: true });
  return [createRoute({ getParentRoute: () => parent, path: WIZARD_LINK_PATH, ...page })] as const;
}

/**
 * "Missing items 12": shown while something of the person's misses a receipt, memo or coding
 * (the count works offline). Expense policies are reached from Settings (`policy-settings.tsx`),
 * as the issue asks, so the admins' navigation does not grow.
 */
export const policiesNav: readonly NavItem[] = [
  { to: '/missing-items', label: 'Missing items', short: 'Missing', visible: () => false, useAlsoVisible: useHasMissingItems, badge: MissingItemsBadge },
];
