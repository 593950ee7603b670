import { useDeferredValue, useLayoutEffect } from 'react';
import { Outlet, createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import type { AppStore } from './data-access/app-state.ts';
import { signedInSession, whenBooted } from './data-access/app-state.ts';
import { useAppState } from './data-access/data-context.tsx';
import { Button } from './components/button.tsx';
import { Toasts } from './app/toasts.tsx';
import { UpdatePrompt } from './app/update-prompt.tsx';
import { safeRedirect } from './lib/redirect.ts';
import { dropPrerendered } from './lib/prerendered.ts';
import { landingPath } from './lib/landing-page.ts';
import { parseUrlSearch, stringifyUrlSearch } from './app/url-search.ts';
import type { NavItem } from './lib/routing.ts';
import { identityGuestRoutes, identityNav } from './features/identity/index.ts';
import { NotFoundPage } from './app/not-found-page.tsx';
import { transactionsCommands, transactionsNav, transactionsRoutes } from './features/transactions/index.ts';
import { reimbursementsCommands, reimbursementsNav, reimbursementsRoutes } from './features/reimbursements/index.ts';
import { approvalsNav, approvalsRoutes } from './features/approvals/index.ts';
import { receiptsCommands, receiptsNav, receiptsRoutes } from './features/receipts/index.ts';
import { cardsCommands, cardsNav, cardsRoutes } from './features/cards/index.ts';
import { switchingRoutes } from './features/switching/index.ts';
import { billsCommands, billsNav, billsRoutes } from './features/bills/index.ts';
import { reportsNav, reportsRoutes } from './features/reports/index.ts';
import { travelCommands, travelNav, travelRoutes } from './features/travel/index.ts';
import { requestsCommands, requestsNav, requestsRoutes } from './features/requests/index.ts';
import { vendorsNav, vendorsRoutes } from './features/vendors/index.ts';
import { purchaseOrdersNav, purchaseOrdersRoutes } from './features/purchase-orders/index.ts';
import { accountingNav, accountingRoutes } from './features/accounting/index.ts';
import { orgRoutes, ssoRoutes, teamNav, teamRoutes } from './features/team/index.ts';
import { workflowsNav, workflowsRoutes } from './features/workflows/index.ts';
import { treasuryNav, treasuryRoutes } from './features/treasury/index.ts';
import { bankingRoutes } from './features/banking/index.ts';
import { policiesLinkRoutes, policiesNav, policiesRoutes } from './features/policies/index.ts';
import { notificationsNav, notificationsRoutes } from './features/notifications/index.ts';
import type { Command } from './lib/commands.ts';
import { lazyPage, preloadWith } from './lib/lazy-page.tsx';
import { surfaceGuard, surfaceShell, toApplication } from './features/surfaces/index.ts';

/**
 * Code-based routes (no generated tree), assembled from the features' route lists. Routes stay
 * thin: they validate URL search params with zod-backed parsers; the shell guards on the
 * session (`_guest` for signed-out pages, `_app` for the signed-in layout); views get their data
 * from the worker.
 */
export interface RouterContext {
  store: AppStore;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Root });

function Root() {
  // Boot's end mounts the first screen (the sign-in page, or the shell and its page). The store's
  // update renders synchronously, so that was one long task on a phone's CPU (issue 33); deferred,
  // React renders it as a transition, in slices, and the boot screen (or the HTML's copy) stays meanwhile.
  const boot = useDeferredValue(useAppState((s) => s.boot));
  const bootError = useAppState((s) => s.bootError);
  const signedIn = useAppState((s) => signedInSession(s) !== null);
  // The HTML's prerendered sign-in page (lib/prerendered.ts) is handed over by the sign-in page
  // itself; if that page will not come (signed in already, or the data could not open), it goes now.
  useLayoutEffect(() => {
    if (boot === 'failed' || (boot === 'ready' && signedIn)) dropPrerendered(document);
  }, [boot, signedIn]);
  return (
    <>
      {boot === 'ready' ? <Outlet /> : <BootScreen error={boot === 'failed' ? bootError : null} />}
      <Toasts />
      <UpdatePrompt />
    </>
  );
}

function BootScreen({ error = null }: { error?: string | null }) {
  return (
    <main className="boot">
      <div className="brand brand-lg">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>Ledgerline</span>
      </div>
      {error ? (
        <div className="notice notice-error" role="alert">
          Ledgerline could not open its local data: {error}
          <Button size="sm" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </div>
      ) : (
        <p className="muted">Opening your data…</p>
      )}
    </main>
  );
}

/** The mailed links' pages: opened while signed in, they say so and offer to sign out first. */
const LINK_PAGES = /^\/(?:invites\/[^/]+|passwordless)\/?$/;

/** Signed-out pages: a visitor who is signed in goes where they were heading instead. */
const guestRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_guest',
  beforeLoad: async ({ context, location }) => {
    await whenBooted(context.store);
    if (!signedInSession(context.store.get()) || LINK_PAGES.test(location.pathname)) return;
    const heading = (location.search as { redirect?: unknown }).redirect;
    throw redirect({ href: safeRedirect(typeof heading === 'string' ? heading : undefined), replace: true });
  },
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_app',
  // Signed out → sign-in; a session of another surface (issue 31) → that surface's home.
  beforeLoad: surfaceGuard('BUSINESS'),
  // The signed-in shell is its own chunk (issue 33): the sign-in page, a first visit's page, never
  // parses it. The router fetches it before the first signed-in page renders (the service worker's
  // precache offline; preloadLazyPages on a first visit); meanwhile the boot screen stays.
  component: lazyRouteComponent(preloadWith(loadShell), 'SignedInLayout'),
  pendingComponent: BootScreen,
  notFoundComponent: NotFoundPage,
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    // Issue 32: the person's start page (Settings → Profile), remembered on this device.
    throw redirect({ to: landingPath(typeof localStorage === 'undefined' ? null : localStorage), replace: true });
  },
});

/** Settings gathers sections from several features, so the shell owns its page (loaded on first visit, like the features' pages). */
const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  ...lazyPage(() => import('./app/settings-page.tsx'), 'SettingsPage', { title: 'Settings', className: 'page', narrow: true }),
});

/** Issue 31: Settings → Accounting firms and Activity (the firm's proposal mail links here). */
const accountingFirmsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/accounting-firms',
  ...lazyPage(() => import('./features/accounting-firms/accounting-firms-page.tsx'), 'AccountingFirmsPage', { title: 'Accounting firms', className: 'page', narrow: true }),
});

/** Issue 32: Settings → Integrations, each integration's own page, and the platform pages beside it. */
const settingsPage = <P extends string, M extends Record<string, unknown>, K extends keyof M & string>(path: P, load: () => Promise<M>, name: K, title: string) =>
  createRoute({ getParentRoute: () => appRoute, path, ...lazyPage(load, name, { title, className: 'page', narrow: true }) });
const integrationRoutes = [
  settingsPage('/settings/integrations', () => import('./features/integrations/integrations-page.tsx'), 'IntegrationsPage', 'Integrations'),
  settingsPage('/settings/integrations/scim', () => import('./features/integrations/scim-page.tsx'), 'ScimPage', 'SCIM provisioning'),
  settingsPage('/settings/integrations/api', () => import('./features/integrations/api-page.tsx'), 'ApiClientsPage', 'API clients'),
  settingsPage('/settings/integrations/hris', () => import('./features/integrations/hris-page.tsx'), 'HrisPage', 'HRIS'),
  settingsPage('/settings/feature-flags', () => import('./features/feature-flags/feature-flags-page.tsx'), 'FeatureFlagsPage', 'Feature flags'),
  settingsPage('/settings/integrations/chat', () => import('./features/integrations/chat-page.tsx'), 'ChatPage', 'Slack and Teams'),
  settingsPage('/chat-link', () => import('./features/integrations/chat-link-page.tsx'), 'ChatLinkPage', 'Opening link'),
  settingsPage('/settings/integrations/sftp', () => import('./features/integrations/sftp-page.tsx'), 'SftpPage', 'SFTP uploads'),
  settingsPage('/settings/integrations/developer-apps', () => import('./features/integrations/developer-apps-page.tsx'), 'DeveloperAppsPage', 'Developer applications'),
  settingsPage('/settings/integrations/connected-apps', () => import('./features/integrations/connected-apps-page.tsx'), 'ConnectedAppsPage', 'Connected apps'),
  settingsPage('/oauth/authorize', () => import('./features/integrations/oauth-authorize-page.tsx'), 'OAuthAuthorizePage', 'Connect an application'),
  settingsPage('/settings/billing', () => import('./features/billing/billing-page.tsx'), 'BillingPage', 'Billing'),
  settingsPage('/statements', () => import('./features/statements/statements-page.tsx'), 'StatementsPage', 'Statements'),
];

/**
 * Any other address: a 404 inside the signed-in shell (header, navigation, a way back). A splat
 * route is matched last, so it never shadows a real page; signed out, the guard sends the visitor
 * to sign-in first, like any signed-in page.
 */
const notFoundRoute = createRoute({ getParentRoute: () => appRoute, path: '$', component: NotFoundPage });

/**
 * Issue 31: the surfaces beside the main app (advisor console, vendor portal, financing
 * application): each one route for its home and every address under it (a splat also matches the
 * bare path), guarded on the session's surface, rendering the surface's lazy shell and page
 * (features/surfaces/). One route each keeps the first load small; the next session's pages may
 * turn a surface into a layout with child routes.
 */
const surfaceRoutes = [
  createRoute({ getParentRoute: () => rootRoute, path: '/console/$', beforeLoad: surfaceGuard('ADVISOR_CONSOLE'), ...surfaceShell }),
  createRoute({ getParentRoute: () => rootRoute, path: '/vendor-portal/$', beforeLoad: surfaceGuard('VENDOR_PORTAL'), ...surfaceShell }),
  createRoute({ getParentRoute: () => rootRoute, path: '/application/$', beforeLoad: surfaceGuard('FINANCING_APPLICATION'), ...surfaceShell }),
];
/** Issue 31: an accounting firm applies for the advisor console (signed out; static, so it wins over the console's splat). */
const consoleApplyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/console/apply',
  ...lazyPage(() => import('./features/surfaces/console/apply-page.tsx'), 'ConsoleApplyPage', { title: 'Apply for the advisor console', className: 'page' }),
});
/** Issue 31: a firm's invitation link (`/console/join#token=…`; signed in or not; static, so it wins over the console's splat). */
const consoleJoinRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/console/join',
  ...lazyPage(() => import('./features/surfaces/console/join-page.tsx'), 'ConsoleJoinPage', { title: 'Join your firm', className: 'page', narrow: true }),
});
/** Issue 31 (G): "Apply for Ledgerline", signed out (a static path wins over `/application/$`). */
const applicationStartRoute = createRoute({ getParentRoute: () => guestRoute, path: '/application/start', ...lazyPage(() => import('./features/identity/application-start-page.tsx'), 'ApplicationStartPage', { title: 'Apply for Ledgerline', className: 'page', narrow: true }) });
/** Issue 31: the vendor's invitation link (outside the portal's guard; signed in or not). */
const vendorInviteRoute = createRoute({ getParentRoute: () => rootRoute, path: '/vendor-portal/invite', ...lazyPage(() => import('./features/surfaces/vendor-portal/invite-page.tsx'), 'VendorInvitePage', { title: 'Join the vendor network', className: 'page', narrow: true }) });
const onboardingRoute = createRoute({ getParentRoute: () => rootRoute, path: '/onboarding/$', beforeLoad: toApplication });


function loadShell() {
  return import('./app/app-layout.tsx').then(({ AppLayout }) => ({
    SignedInLayout: function SignedInLayout() {
      return <AppLayout nav={NAV} commands={COMMANDS} />;
    },
  }));
}

/** Each feature brings its routes and its main navigation entries: a new feature is one import here. */
const NAV: readonly NavItem[] = [...transactionsNav, ...cardsNav, ...receiptsNav, ...reimbursementsNav, ...travelNav, ...requestsNav, ...approvalsNav, ...policiesNav, ...billsNav, ...purchaseOrdersNav, ...vendorsNav, ...reportsNav, ...accountingNav, ...treasuryNav, ...workflowsNav, ...teamNav, ...identityNav, ...notificationsNav];
/** …and its palette commands ("Go to" commands come from NAV). */
const COMMANDS: readonly Command[] = [...transactionsCommands, ...cardsCommands, ...receiptsCommands, ...reimbursementsCommands, ...travelCommands, ...requestsCommands, ...billsCommands];

const routeTree = rootRoute.addChildren([
  guestRoute.addChildren([...identityGuestRoutes(guestRoute), applicationStartRoute]),
  // Signed in or not: the reminder link's receipts-only page (issue 29).
  ...policiesLinkRoutes(rootRoute),
  // Issue 31: the advisor console, the vendor portal and the financing application.
  ...surfaceRoutes,
  vendorInviteRoute,
  onboardingRoute,
  consoleApplyRoute,
  consoleJoinRoute,

  appRoute.addChildren([indexRoute, ...transactionsRoutes(appRoute), ...cardsRoutes(appRoute), ...switchingRoutes(appRoute), ...receiptsRoutes(appRoute), ...reimbursementsRoutes(appRoute), ...travelRoutes(appRoute), ...requestsRoutes(appRoute), ...approvalsRoutes(appRoute), ...policiesRoutes(appRoute), ...notificationsRoutes(appRoute), ...billsRoutes(appRoute), ...purchaseOrdersRoutes(appRoute), ...vendorsRoutes(appRoute), ...reportsRoutes(appRoute), ...accountingRoutes(appRoute), ...treasuryRoutes(appRoute), ...bankingRoutes(appRoute), ...workflowsRoutes(appRoute), ...teamRoutes(appRoute), ...orgRoutes(appRoute), ...ssoRoutes(appRoute), settingsRoute, accountingFirmsRoute, ...integrationRoutes, notFoundRoute]),
]);

/**
 * Starts fetching the lazy chunks of the address being opened (the signed-in shell and the page)
 * while the data boots: the guards wait for boot before the router would ask for them, and a
 * returning person's first screen must not wait for boot and then the chunks one after the other.
 * A chunk that fails here is left to the route (lazyRouteComponent tries again when it renders).
 */
export function preloadOpeningChunks(router: ReturnType<typeof createAppRouter>, pathname: string): void {
  const [matched] = router.getMatchedRoutes(pathname);
  for (const route of matched) {
    const component = route.options.component as { preload?: () => Promise<void> } | undefined;
    void component?.preload?.().catch(() => undefined);
  }
}

export function createAppRouter(store: AppStore) {
  const router = createRouter({
    routeTree,
    context: { store },
    parseSearch: parseUrlSearch,
    stringifySearch: stringifyUrlSearch,
    defaultPreload: false,
    scrollRestoration: false,
  });
  // The page scrolls on a phone (issue 25 item 14): a new page starts at the top, but a change of
  // the search alone (opening a row's drawer, a filter, a tab) keeps the place, unless the
  // navigation says otherwise.
  const commit = router.commitLocation;
  router.commitLocation = (next) => commit({ ...next, resetScroll: next.resetScroll ?? next.pathname !== router.latestLocation.pathname });
  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
