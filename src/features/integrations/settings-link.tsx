import { Link } from '@tanstack/react-router';
import { canManageApiClients, canManageIntegrations } from '../../../schema/roles.ts';
import { Section } from '../../components/section.tsx';
import { useAppState } from '../../data-access/data-context.tsx';

/** Settings' entry to Integrations (issue 32): admins, IT admins and developer admins. */
export function IntegrationsLink() {
  const user = useAppState((s) => s.session?.user);
  if (!user || !(canManageIntegrations(user) || canManageApiClients(user))) return null;
  return (
    <Section title="Integrations" description="SCIM provisioning, your HRIS, Slack and Teams, and API clients.">
      <Link to="/settings/integrations" className="btn btn-secondary">Manage integrations</Link>
    </Section>
  );
}
