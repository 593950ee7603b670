import { Link } from '@tanstack/react-router';

/** The bill pay section's pages, in the order of the sub-navigation. */
export const BILL_PAY_PAGES = [
  { to: '/bills', label: 'Bills' },
  { to: '/bills/inbox', label: 'Inbox' },
  { to: '/bills/recurring', label: 'Recurring' },
  { to: '/bills/templates', label: 'Templates' },
  { to: '/bills/credits', label: 'Vendor credits' },
] as const;
export type BillPayPath = (typeof BILL_PAY_PAGES)[number]['to'];

/**
 * The bill pay section's sub-navigation (issue 11), above each of its pages' headers: the bills,
 * the inbox of uploaded invoices not yet completed, recurring bills, templates and vendor credits.
 * Plain links (each page is its own route and URL); the current one is marked for assistive tech.
 */
export function BillPayNav({ current }: { current: BillPayPath }) {
  return (
    <nav className="subnav" aria-label="Bill pay">
      {BILL_PAY_PAGES.map((p) => (
        <Link key={p.to} to={p.to} className={p.to === current ? 'subnav-link active' : 'subnav-link'}
          {...(p.to === current ? { 'aria-current': 'page' as const } : {})}>
          {p.label}
        </Link>
      ))}
    </nav>
  );
}
