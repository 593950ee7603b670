import { createRoute, type AnyRoute } from '@tanstack/react-router';
import { canManageBillPayAccounting } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { onlyFor } from '../../lib/route-guard.ts';
import type { NavItem } from '../../lib/routing.ts';

/**
 * Signed-in route /accounting (issue 12 §7 Accounting), its own chunk. §6 "manage bill pay
 * accounting": admins, AP clerks and bookkeepers; anyone else typing the address goes home (the
 * server refuses their accounting calls anyway).
 */
export function accountingRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./accounting-page.tsx'), 'AccountingPage', { title: 'Accounting', className: 'accounting-page' });
  return [createRoute({ getParentRoute: () => parent, path: '/accounting', beforeLoad: onlyFor(canManageBillPayAccounting), ...page })] as const;
}

/** Shown (and offered as "Go to accounting") only to those who manage bill pay accounting. */
export const accountingNav: readonly NavItem[] = [{ to: '/accounting', label: 'Accounting', visible: canManageBillPayAccounting }];
