import { Link } from '@tanstack/react-router';
import { useAppState } from '../../data-access/data-context.tsx';
import { Section } from '../../components/section.tsx';

/** Settings' entry to Accounting firms and Activity (issue 31), admins only. */
export function AccountingFirmsLink() {
  const role = useAppState((s) => s.session?.user.role);
  if (role !== 'BUSINESS_OWNER' && role !== 'BUSINESS_ADMIN') return null;
  return (
    <Section title="Accounting firms and activity" description="Firms that work in your business, their proposals, and every change made here.">
      <Link to="/settings/accounting-firms" className="btn btn-secondary">
        Manage accounting firms and see activity
      </Link>
    </Section>
  );
}
