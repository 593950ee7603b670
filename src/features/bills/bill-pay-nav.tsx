import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useAppState, useDataClient } from '../../data-access/data-context.tsx';
import { formatCount } from '../../lib/format.ts';
import { useCurrentTabInView } from '../../components/subnav.ts';

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
 * the inbox of uploaded invoices not yet completed (with how many wait there, from the mirror's
 * reference data, offline too), recurring bills, templates and vendor credits. Plain links (each
 * page is its own route and URL); the current one is marked for assistive tech.
 */
export function BillPayNav({ current }: { current: BillPayPath }) {
  const tabs = useCurrentTabInView(current);
  const inbox = useInboxCount();
  return (
    <nav className="subnav" aria-label="Bill pay" ref={tabs}>
      {BILL_PAY_PAGES.map((p) => (
        // Exact: the router would otherwise mark /bills active on every page under it.
        <Link key={p.to} to={p.to} activeOptions={{ exact: true, includeSearch: false }} className={p.to === current ? 'subnav-link active' : 'subnav-link'}
          {...(p.to === current ? { 'aria-current': 'page' as const } : {})}>
          {p.label}
          {p.to === '/bills/inbox' && inbox > 0 && (
            <span className="subnav-count" data-testid="inbox-nav-count">
              {formatCount(inbox)}
              <span className="sr-only"> {inbox === 1 ? 'invoice' : 'invoices'} to complete</span>
            </span>
          )}
        </Link>
      ))}
    </nav>
  );
}

/** Provisional bills as shown (created offline included, completed or removed ones gone), re-read when reference data changes. */
function useInboxCount(): number {
  const client = useDataClient();
  const version = useAppState((s) => s.referenceVersion);
  const [count, setCount] = useState(0);
  useEffect(() => {
    let live = true;
    void client.referenceData().then((d) => {
      if (live) setCount(d.provisional_bills.length);
    });
    return () => {
      live = false;
    };
  }, [client, version]);
  return count;
}
