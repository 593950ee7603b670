import type { AnyRoute } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';

/** /cards/switch: owners and admins move the vendors their old card pays onto Ledgerline cards. */
export function switchingRoutes<P extends AnyRoute>(parent: P) {
  const page = lazyPage(() => import('./switching-page.tsx'), 'SwitchingPage', { title: 'Move vendors to Ledgerline', className: 'switching-page' });
  return [pageRoute(parent, '/cards/switch', page, { allowed: isAdmin })] as const;
}
