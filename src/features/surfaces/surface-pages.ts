/**
 * Issue 31: each surface's shell — its name, home and navigation — and the pages the design
 * lists (docs/design/issue-31-surfaces.md §4). A page not built yet says what it will hold; the
 * next session replaces these with the surfaces' own pages.
 */
export type ShellKind = 'ADVISOR_CONSOLE' | 'VENDOR_PORTAL' | 'FINANCING_APPLICATION';

export interface SurfacePageInfo {
  /** The address, or a pattern for a page with an id in it. */
  path: string;
  /** Heading and document title. */
  title: string;
  /** Its navigation entry, when it has one. */
  nav?: string;
  /** What the page will hold. */
  holds: string;
}

export interface Shell {
  kind: ShellKind;
  name: string;
  home: string;
  pages: readonly SurfacePageInfo[];
}

export const SHELLS: Record<ShellKind, Shell> = {
  ADVISOR_CONSOLE: {
    kind: 'ADVISOR_CONSOLE',
    name: 'Advisor console',
    home: '/console',
    pages: [
      { path: '/console', title: 'Clients', nav: 'Clients', holds: 'The businesses your firm works with, their open items (uncoded, missing receipts, not synced, bills waiting) and a way to open each one.' },
      { path: '/console/proposals', title: 'Proposals', nav: 'Proposals', holds: 'Proposals to work with new clients: drafts, sent, accepted and declined, one at a time or from a CSV.' },
      { path: '/console/team', title: 'Team', nav: 'Team', holds: 'Your firm’s people, their invites and which clients each one works on.' },
      { path: '/console/applications', title: 'Applications', nav: 'Applications', holds: 'Financing applications your firm starts for clients, and where each stands.' },
      { path: '/console/referrals', title: 'Referrals', nav: 'Referrals', holds: 'Your firm’s referral codes and the businesses that signed up with them.' },
      { path: '/console/settings', title: 'Firm settings', nav: 'Settings', holds: 'Your firm’s name and logo.' },
      { path: '/console/clients/:id', title: 'Client', holds: 'Opening a client: Ledgerline switches you into that business, acting for your firm.' },
      { path: '/console/application', title: 'Your firm’s application', nav: 'Application', holds: 'Where your application to the advisor console stands, and what happens next.' },
    ],
  },
  VENDOR_PORTAL: {
    kind: 'VENDOR_PORTAL',
    name: 'Vendor portal',
    home: '/vendor-portal',
    pages: [
      { path: '/vendor-portal', title: 'Payments', nav: 'Payments', holds: 'What your payers owe and paid you, with the date each payment is expected to arrive.' },
      { path: '/vendor-portal/profile', title: 'Profile', nav: 'Profile', holds: 'Your business address, bank account, tax ID and documents, shared with the businesses that pay you.' },
      { path: '/vendor-portal/payers', title: 'Payers', nav: 'Payers', holds: 'The businesses that pay you through Ledgerline.' },
      { path: '/vendor-portal/changes', title: 'Changes', nav: 'Changes', holds: 'Changes to your details that a payer still has to accept.' },
    ],
  },
  FINANCING_APPLICATION: {
    kind: 'FINANCING_APPLICATION',
    name: 'Financing application',
    home: '/application',
    pages: [
      { path: '/application', title: 'Your application', nav: 'Application', holds: 'The steps of your application and which are done, saved on this device as you go.' },
      { path: '/application/submitted', title: 'Application submitted', holds: 'The decision on your application and what happens next.' },
      { path: '/application/:id', title: 'Application step', holds: 'One step of your application: its questions, saved on this device as you go.' },
    ],
  },
};

/** The shell an address belongs to (its first segment). */
export function shellOf(pathname: string): Shell | null {
  if (/^\/console(\/|$)/.test(pathname)) return SHELLS.ADVISOR_CONSOLE;
  if (/^\/vendor-portal(\/|$)/.test(pathname)) return SHELLS.VENDOR_PORTAL;
  if (/^\/application(\/|$)/.test(pathname)) return SHELLS.FINANCING_APPLICATION;
  return null;
}

const matches = (pattern: string, pathname: string) => {
  const want = pattern.split('/');
  const got = pathname.replace(/\/+$/, '').split('/');
  return want.length === got.length && want.every((part, i) => part === got[i] || (part.startsWith(':') && got[i] !== ''));
};

/** The page at an address (an exact address before a pattern), null for none: the shell's "not found". */
export function pageOf(pathname: string): SurfacePageInfo | null {
  const shell = shellOf(pathname);
  if (!shell) return null;
  return shell.pages.find((p) => !p.path.includes(':') && matches(p.path, pathname)) ?? shell.pages.find((p) => matches(p.path, pathname)) ?? null;
}

/** The navigation of a shell; the firm applicant sees only their application, a firm user everything else. */
export function shellNav(shell: Shell, applicant: boolean): SurfacePageInfo[] {
  const nav = shell.pages.filter((p) => p.nav);
  if (shell.kind !== 'ADVISOR_CONSOLE') return nav;
  return nav.filter((p) => (p.path === '/console/application') === applicant);
}

/**
 * The console holds the firm applicant's one page and the firm user's pages (the router's guard
 * admits both to `/console`): each is sent to their own. Null stays.
 */
export function consoleRedirect(kind: string | undefined, pathname: string): string | null {
  if (kind !== 'ADVISOR_CONSOLE' && kind !== 'ADVISOR_CONSOLE_APPLICATION') return null;
  const onApplication = /^\/console\/application\/?$/.test(pathname);
  if (kind === 'ADVISOR_CONSOLE_APPLICATION') return onApplication ? null : '/console/application';
  return onApplication ? '/console' : null;
}
