import { lazy, Suspense, useLayoutEffect, useState, type ComponentType } from 'react';
import { Link, Navigate, useRouterState } from '@tanstack/react-router';
import { mobileUnsupportedReason } from '../../../schema/platform.ts';
import { SURFACE_NAMES } from '../../../workers/scope-choices.ts';
import { useAppState } from '../../data-access/data-context.tsx';
import { Button } from '../../components/button.tsx';
import { Menu, MenuItem } from '../../components/menu.tsx';
import { useSignOut } from '../../lib/use-sign-out.ts';
import { ScopePicker } from './scope-picker.tsx';
import { ActingBar } from './acting-bar.tsx';
import { HeaderLogo } from './console/firm-logo.tsx';
import { consoleRedirect, pageOf, SHELLS, shellNav, shellOf, type ShellKind } from './surface-pages.ts';
import './surfaces.css';

/**
 * Each surface's built pages: its own lazy chunk (given the page's path), which of the shell's
 * pages it has built (the rest keep the placeholder below), and whether it titles the document
 * itself (else the shell titles it from surface-pages.ts).
 */
type BuiltPages = { Pages: ComponentType<{ path: string }>; builds: (path: string) => boolean; titlesItself: boolean };
const CONSOLE_BUILT = new Set([
  '/console', '/console/proposals', '/console/team', '/console/applications', '/console/referrals', '/console/settings', '/console/application',
]);
const BUILT: Record<ShellKind, BuiltPages> = {
  ADVISOR_CONSOLE: { Pages: lazy(() => import('./console/console-pages.tsx')), builds: (path) => CONSOLE_BUILT.has(path), titlesItself: true },
  VENDOR_PORTAL: {
    Pages: lazy(() => import('./vendor-portal/portal-pages.tsx').then((m) => ({ default: m.VendorPortalPage }))),
    builds: () => true,
    titlesItself: false,
  },
  FINANCING_APPLICATION: {
    Pages: lazy(() => import('./application/application-pages.tsx').then((m) => ({ default: m.ApplicationPages }))),
    builds: () => true,
    titlesItself: true,
  },
};

/**
 * Issue 31: the shell of a surface beside the main app — the advisor console, the vendor portal or
 * the financing application (by the address's first segment): brand, the surface's name, its
 * navigation (a firm user's console shows the firm's logo when it has one), the account menu with "Switch account", the offline notice, then the page at the
 * address (one route per surface, src/router.tsx, so the shell picks the page). No sync
 * indicator: a surface has no mirror. Inside the mobile wrapper it says the surface is not supported.
 */
export function SurfaceLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const shell = shellOf(pathname) ?? SHELLS.ADVISOR_CONSOLE;
  const platform = useAppState((s) => s.platform);
  const kind = useAppState((s) => s.surfaceSession?.surface.kind);
  const applicant = kind === 'ADVISOR_CONSOLE_APPLICATION';
  const online = useAppState((s) => s.online && (s.status?.online ?? true));
  const firmName = useAppState((s) => (s.surfaceSession?.surface.kind === 'ADVISOR_CONSOLE' ? s.surfaceSession.label : null));
  const expired = useAppState((s) => s.surfaceSession !== null && s.status?.phase === 'signed_out');
  const signOut = useSignOut();
  const unsupported = mobileUnsupportedReason(platform, { pathname, role: null });
  const elsewhere = consoleRedirect(kind, pathname);
  if (elsewhere) return <Navigate to={elsewhere} replace />;
  if (unsupported) {
    return (
      <main className="boot">
        <p className="notice notice-error" role="alert">
          {unsupported}
        </p>
        <Button onClick={() => void signOut(false)}>Sign out</Button>
      </main>
    );
  }
  return (
    <div className="app surface-app">
      <header className="topbar">
        <Link to={shell.home} className="brand" aria-label={`Ledgerline ${shell.name} home`} activeOptions={{ exact: true }}>
          <img src="/favicon.svg" alt="" width={22} height={22} />
          <span>Ledgerline</span>
        </Link>
        {firmName !== null && <HeaderLogo firmName={firmName} />}
        <span className="surface-name">{shell.name}</span>
        <nav aria-label={shell.name} className="surface-nav">
          {shellNav(shell, applicant).map((item) => (
            // One route serves the whole surface: only the exact address is the current page (Link marks it).
            <Link key={item.path} to={item.path} activeOptions={{ exact: true }}>
              {item.nav}
            </Link>
          ))}
        </nav>
        <div className="spacer" />
        <AccountMenu />
      </header>
      {!online && (
        <div className="offline-banner" role="region" aria-label="Offline notice">
          You’re offline. What was read before stays on screen; changes need a connection.
        </div>
      )}
      {expired && (
        <div className="notice notice-error surface-expired" role="alert">
          Your session has ended. Sign in again to continue.
          <Button size="sm" onClick={() => void signOut(false)}>
            Sign in again
          </Button>
        </div>
      )}
      <main className="app-main">
        <SurfacePage />
      </main>
    </div>
  );
}

/** Who is signed in (the scope's name, the email), "Switch account", sign-out. */
function AccountMenu() {
  const session = useAppState((s) => s.surfaceSession);
  const signOut = useSignOut();
  const [picking, setPicking] = useState(false);
  if (!session) return null;
  const initials = session.label.split(/\s+/).slice(0, 2).map((w) => w[0] ?? '').join('').toUpperCase();
  return (
    <>
      <Menu
        label="Account"
        trigger={
          <>
            <span className="sr-only">Account: </span>
            <span className="avatar" aria-hidden="true">
              {initials}
            </span>
            <span className="user-name">{session.label}</span>
          </>
        }
        header={
          <div className="menu-header">
            <div className="menu-name">{session.label}</div>
            {session.email && <div className="muted">{session.email}</div>}
            <div className="muted">{SURFACE_NAMES[session.surface.kind]}</div>
          </div>
        }
      >
        <MenuItem onSelect={() => setPicking(true)}>Switch account…</MenuItem>
        <MenuItem onSelect={() => void signOut(false)}>Sign out</MenuItem>
        <MenuItem onSelect={() => void signOut(true)}>Sign out of all devices</MenuItem>
      </Menu>
      {picking && <ScopePicker onClose={() => setPicking(false)} />}
    </>
  );
}

/**
 * A surface's page by its address (surface-pages.ts). The pages themselves are the next
 * session's: until then each says what it will hold; an address of none is "Page not found".
 */
/** Issue 31: each surface's own pages, a lazy chunk per surface. */

export function SurfacePage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const shell = shellOf(pathname) ?? SHELLS.ADVISOR_CONSOLE;
  const page = pageOf(pathname);
  const title = page?.title ?? 'Page not found';
  const { Pages, builds, titlesItself } = BUILT[shell.kind];
  const built = page !== null && builds(page.path);
  useLayoutEffect(() => {
    if (!built || !titlesItself) document.title = `${title} · Ledgerline`;
  }, [title, built, titlesItself]);
  if (built) return <Suspense fallback={<p className="muted" role="status">Loading…</p>}><Pages path={page.path} /></Suspense>;
  return (
    <section className="surface-page" aria-labelledby="surface-page-title">
      <h1 id="surface-page-title">{title}</h1>
      {page ? (
        <div className="notice" role="note">
          <p>{page.holds}</p>
          <p className="muted">This page is not built yet.</p>
        </div>
      ) : (
        <p>
          There is no page at this address in the {shell.name.toLowerCase()}. <Link to={shell.home}>Go to {shell.name.toLowerCase()}</Link>
        </p>
      )}
    </section>
  );
}

/** The main app's pieces of issue 31 (features/surfaces/index.ts): the scope picker given `onClose`, else the "Acting for" bar. */
export function MainAppPart({ onClose }: { onClose?: () => void }) {
  return onClose ? <ScopePicker onClose={onClose} /> : <ActingBar />;
}
