import { Link } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { Section } from '../../components/section.tsx';
import { useAppState } from '../../data-access/data-context.tsx';

/** Settings' entry to Billing (issue 32): owners and admins, who alone change the business's plan. */
export function BillingLink() {
  const user = useAppState((s) => s.session?.user);
  if (!user || !isAdmin(user)) return null;
  return (
    <Section title="Billing" description="Your Ledgerline plan and add-ons, and what each costs per month.">
      <Link to="/settings/billing" className="btn btn-secondary">Manage billing</Link>
    </Section>
  );
}
