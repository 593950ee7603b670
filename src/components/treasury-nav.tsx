import { Link } from '@tanstack/react-router';
import { useCurrentTabInView } from './subnav.ts';

/**
 * The Treasury section's pages, in the order of the sub-navigation. One list: bank accounts and
 * flex join it as entries here.
 */
export const TREASURY_PAGES = [
  { to: '/treasury', label: 'Accounts' },
  { to: '/treasury/transfers', label: 'Transfers' },
  { to: '/treasury/automations', label: 'Automations' },
  { to: '/treasury/bank-accounts', label: 'Bank accounts' },
  { to: '/treasury/statements', label: 'Statements' },
  { to: '/treasury/flex', label: 'Flex' },
] as const;
export type TreasuryPath = (typeof TREASURY_PAGES)[number]['to'];

/** The Treasury sub-navigation above each of its pages' headers; the current page is marked for assistive tech. */
export function TreasuryNav({ current }: { current: TreasuryPath }) {
  const tabs = useCurrentTabInView(current);
  return (
    <nav className="subnav" aria-label="Treasury" ref={tabs}>
      {TREASURY_PAGES.map((p) => (
        <Link key={p.to} to={p.to} activeOptions={{ exact: true, includeSearch: false }} className={p.to === current ? 'subnav-link active' : 'subnav-link'}
          {...(p.to === current ? { 'aria-current': 'page' as const } : {})}>
          {p.label}
        </Link>
      ))}
    </nav>
  );
}
