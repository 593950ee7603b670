import { useLayoutEffect } from 'react';
import { ApplicationsPage } from './applications-page.tsx';
import { FirmApplicationPage } from './application-page.tsx';
import { ClientsPage } from './clients-page.tsx';
import { ProposalsPage } from './proposals-page.tsx';
import { ReferralsPage } from './referrals-page.tsx';
import { FirmSettingsPage } from './settings-page.tsx';
import { TeamPage } from './team-page.tsx';
import './console.css';

/**
 * Issue 31: the advisor console's built pages by address (the surface shell renders this chunk
 * for a console address; an address not here keeps the shell's own page).
 */
const PAGES: Record<string, { title: string; Page: () => React.JSX.Element }> = {
  '/console': { title: 'Clients', Page: ClientsPage },
  '/console/proposals': { title: 'Proposals', Page: ProposalsPage },
  '/console/team': { title: 'Team', Page: TeamPage },
  '/console/applications': { title: 'Applications', Page: ApplicationsPage },
  '/console/referrals': { title: 'Referrals', Page: ReferralsPage },
  '/console/settings': { title: 'Firm settings', Page: FirmSettingsPage },
  '/console/application': { title: 'Your firm’s application', Page: FirmApplicationPage },
};

export const builtConsolePage = (path: string): boolean => path in PAGES;

export default function ConsolePage({ path }: { path: string }) {
  const entry = PAGES[path];
  const title = entry?.title ?? 'Advisor console';
  useLayoutEffect(() => {
    document.title = `${title} · Ledgerline`;
  }, [title]);
  return entry ? <entry.Page /> : null;
}
