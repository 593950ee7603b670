import { Link } from '@tanstack/react-router';
import { isAdmin } from '../../../schema/roles.ts';
import { Section } from '../../components/section.tsx';
import { useAppState } from '../../data-access/data-context.tsx';

/** Settings' entry to the business's feature flags (issue 32): owners and admins, who alone change them. */
export function FeatureFlagsLink() {
  const user = useAppState((s) => s.session?.user);
  if (!user || !isAdmin(user)) return null;
  return (
    <Section title="Feature flags" description="Turn business-wide features on or off: the Auditor role, invites by managers, how many bills one bulk action takes, and more.">
      <Link to="/settings/feature-flags" className="btn btn-secondary">Manage feature flags</Link>
    </Section>
  );
}
