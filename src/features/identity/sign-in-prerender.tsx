import { renderToString } from 'react-dom/server';
import { RouterContextProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { createAppStore } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient } from '../../data-access/types.ts';
import { SignInPage } from './sign-in-page.tsx';

/**
 * Rendering on the server runs no effect, so the page must not call the worker while it renders:
 * a call here would be a bug in what the prerendered page shows, and fails the build.
 */
const noWorker = new Proxy({} as DataClient, {
  get: (_target, name) => () => {
    throw new Error(`prerendering the sign-in page called the worker (${String(name)})`);
  },
});

/**
 * The sign-in page as a signed-out visitor first sees it (online, the web config not read yet),
 * rendered from the real component at build time (build/prerender.ts writes it into
 * dist/sign-in.html, issue 33), so the HTML's copy cannot drift from the app's. Only what the page
 * needs around it is built here: the store, and a router for its links.
 */
export async function renderSignInPage(): Promise<string> {
  const store = createAppStore(true);
  store.set({ boot: 'ready' });
  const rootRoute = createRootRoute();
  const signInRoute = createRoute({ getParentRoute: () => rootRoute, path: '/sign-in' });
  const router = createRouter({
    routeTree: rootRoute.addChildren([signInRoute]),
    history: createMemoryHistory({ initialEntries: ['/sign-in'] }),
  });
  await router.load();
  return renderToString(
    <DataProvider client={noWorker} store={store}>
      <RouterContextProvider router={router}>
        <SignInPage redirect={undefined} />
      </RouterContextProvider>
    </DataProvider>,
    // The app's own ids (useId) never meet these: the copy is gone before the app's page shows.
    { identifierPrefix: 'pre-' },
  );
}
