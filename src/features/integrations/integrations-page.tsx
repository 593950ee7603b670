import { Link } from '@tanstack/react-router';
import { canManageApiClients, canManageIntegrations } from '../../../schema/roles.ts';
import { Section } from '../../components/section.tsx';
import { useAppState } from '../../data-access/data-context.tsx';

type Entry = { to: string; title: string; description: string; action: string; who: 'integrations' | 'api' };

const ENTRIES: readonly Entry[] = [
  {
    to: '/settings/integrations/scim', title: 'SCIM provisioning', who: 'integrations', action: 'Set up SCIM',
    description: 'Create, update and suspend people and departments from your identity provider (Okta, Entra ID, OneLogin).',
  },
  {
    to: '/settings/integrations/hris', title: 'HRIS', who: 'integrations', action: 'Connect an HRIS',
    description: 'Import people, departments, managers and locations from your HR system, review the changes, then keep them in sync.',
  },
  {
    to: '/settings/integrations/chat', title: 'Slack and Teams', who: 'integrations', action: 'Connect Slack or Teams',
    description: 'Post approval requests and rejections to a channel, with links that open them in Ledgerline.',
  },
  {
    to: '/settings/integrations/sftp', title: 'SFTP transaction uploads', who: 'integrations', action: 'Set up SFTP uploads',
    description: 'Send cleared transactions to your own SFTP server every day or week, as a CSV with the transactions export’s columns.',
  },
  {
    to: '/settings/integrations/api', title: 'API clients', who: 'api', action: 'Manage API clients',
    description: 'Give your own scripts and tools access to Ledgerline data with OAuth client credentials and scoped tokens.',
  },
  {
    to: '/settings/integrations/developer-apps', title: 'Developer applications', who: 'api', action: 'Manage applications',
    description: 'Register software you make for other businesses: their admins connect it with OAuth 2.0 and PKCE.',
  },
  {
    to: '/settings/integrations/connected-apps', title: 'Connected apps', who: 'api', action: 'See connected apps',
    description: 'Applications an admin of this business allowed: what each may do, who allowed it, when it was last used. Disconnect any of them.',
  },
];

/** Issue 32: Settings → Integrations, one entry per integration for the people who may manage it. */
export function IntegrationsPage() {
  const user = useAppState((s) => s.session?.user);
  const shown = ENTRIES.filter((e) => user && (e.who === 'api' ? canManageApiClients(user) : canManageIntegrations(user)));
  return (
    <>
      <h1>Integrations</h1>
      <p className="muted">Connect Ledgerline to the systems your company already runs on.</p>
      {shown.length === 0 && <p>Only admins can manage integrations. Ask an admin of your business.</p>}
      {shown.map((e) => (
        <Section key={e.to} title={e.title} description={e.description}>
          <Link to={e.to} className="btn btn-secondary">{e.action}</Link>
        </Section>
      ))}
    </>
  );
}
