import type { AnyRoute } from '@tanstack/react-router';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import type { NavItem } from '../../lib/routing.ts';
import { parseReimbursementsSearch } from './search-params.ts';

/** Signed-in routes: the claims list (with its detail drawer), URL state typed by parseReimbursementsSearch. */
export function reimbursementsRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./reimbursements-page.tsx'), 'ReimbursementsPage', { title: 'Reimbursements', className: 'reimbursements' });
  return [pageRoute(parent, '/reimbursements', page, { search: parseReimbursementsSearch })] as const;
}

/** "Go to reimbursements" in the palette comes from this entry. */
export const reimbursementsNav: readonly NavItem[] = [{ to: '/reimbursements', label: 'Reimbursements' }];

/** "New reimbursement", "New mileage claim", "New per-diem claim". */
export { reimbursementsCommands } from './commands.ts';
/** What another feature (receipt capture, OCR prefill) plugs into the claim form. */
export type { ClaimFormValues } from './claim-form.ts';
