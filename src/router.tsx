import { Outlet, createRootRouteWithContext, createRoute, createRouter, redirect } from '@tanstack/react-router';
import type { AppStore } from './data-access/app-state.ts';
import { whenBooted } from './data-access/app-state.ts';
import { useAppState } from './data-access/data-context.tsx';
import { AppLayout } from './app/app-layout.tsx';
import { SignInPage } from './app/sign-in-page.tsx';
import { SignUpPage } from './app/sign-up-page.tsx';
import { SettingsPage } from './features/settings/settings-page.tsx';
import { Toasts } from './app/toasts.tsx';
import { UpdatePrompt } from './app/update-prompt.tsx';
import { HOME_PATH, safeRedirect } from './app/redirect.ts';
import { parseUrlSearch, stringifyUrlSearch } from './app/url-search.ts';
import { parseTransactionsSearch } from './features/transactions/search-params.ts';
import { TransactionsPage } from './features/transactions/transactions-page.tsx';

/**
 * Code-based routes (no generated tree). Routes stay thin: they validate URL search params
 * with zod-backed parsers and guard on the session; views get their data from the worker.
 */
export interface RouterContext {
  store: AppStore;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Root });

function Root() {
  const boot = useAppState((s) => s.boot);
  const bootError = useAppState((s) => s.bootError);
  return (
    <>
      {boot === 'ready' ? <Outlet /> : <BootScreen error={boot === 'failed' ? bootError : null} />}
      <Toasts />
      <UpdatePrompt />
    </>
  );
}

function BootScreen({ error }: { error: string | null }) {
  return (
    <main className="boot">
      <div className="brand brand-lg">
        <img src="/favicon.svg" alt="" width={32} height={32} />
        <span>Ledgerline</span>
      </div>
      {error ? (
        <div className="notice notice-error" role="alert">
          Ledgerline could not open its local data: {error}
          <button type="button" className="btn btn-sm" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      ) : (
        <p className="muted">Opening your data…</p>
      )}
    </main>
  );
}

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: (raw: Record<string, unknown>): { redirect?: string } =>
    typeof raw.redirect === 'string' && raw.redirect ? { redirect: raw.redirect } : {},
  beforeLoad: async ({ context, search }) => {
    await whenBooted(context.store);
    if (context.store.get().session) throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: function SignInRoute() {
    const { redirect: to } = signInRoute.useSearch();
    return <SignInPage redirect={to} />;
  },
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-up',
  beforeLoad: async ({ context }) => {
    await whenBooted(context.store);
    if (context.store.get().session) throw redirect({ href: HOME_PATH, replace: true });
  },
  component: SignUpPage,
});

const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_app',
  beforeLoad: async ({ context, location }) => {
    await whenBooted(context.store);
    if (!context.store.get().session) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href }, replace: true });
    }
  },
  component: AppLayout,
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});

export const transactionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/transactions',
  validateSearch: parseTransactionsSearch,
  component: TransactionsPage,
});

const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: SettingsPage,
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  signUpRoute,
  appRoute.addChildren([indexRoute, transactionsRoute, settingsRoute]),
]);

export function createAppRouter(store: AppStore) {
  return createRouter({
    routeTree,
    context: { store },
    parseSearch: parseUrlSearch,
    stringifySearch: stringifyUrlSearch,
    defaultPreload: false,
    scrollRestoration: false,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
