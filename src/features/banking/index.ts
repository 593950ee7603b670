import type { AnyRoute } from '@tanstack/react-router';
import { canViewFinancingDetails, isAdmin } from '../../../schema/roles.ts';
import { lazyPage } from '../../lib/lazy-page.tsx';
import { pageRoute } from '../../lib/page-route.ts';
import { parseStatementsSearch } from './search-params.ts';

/**
 * Issue 30, banking links and flex: /treasury/bank-accounts (admins: linked bank accounts,
 * micro-deposit verification, entity cash accounts), /treasury/statements (admins: statements
 * read on the device, their lines matched by the server), /treasury/flex (admins and AP clerks:
 * flex onboarding, settings for admins, records with their installments). Lazy pages; no nav
 * entry here: the treasury sub-navigation is the lead's merge.
 */
export function bankingRoutes<P extends AnyRoute>(parent: P) {
  const accounts = lazyPage(() => import('./bank-accounts-page.tsx'), 'BankAccountsPage', { title: 'Bank accounts', className: 'page' });
  const statements = lazyPage(() => import('./statements-page.tsx'), 'StatementsPage', { title: 'Statements', className: 'page' });
  const flex = lazyPage(() => import('./flex-page.tsx'), 'FlexPage', { title: 'Flex', className: 'page' });
  return [
    pageRoute(parent, '/treasury/bank-accounts', accounts, { allowed: isAdmin }),
    pageRoute(parent, '/treasury/statements', statements, { allowed: isAdmin, search: parseStatementsSearch }),
    pageRoute(parent, '/treasury/flex', flex, { allowed: canViewFinancingDetails }),
  ] as const;
}
