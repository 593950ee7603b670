import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { createDataClient } from '../workers/client.ts';
import { startBrowserTelemetry } from '../workers/telemetry-client.ts';
import { bootData, createAppStore, signedInSession, type AppStore } from './data-access/app-state.ts';
import { DataProvider } from './data-access/data-context.tsx';
import { bootPlatform, tabBusinessId } from './lib/platform-boot.ts';
import { withoutBusinessParam } from './lib/business-switch.ts';
import { createAppRouter, preloadOpeningChunks } from './router.tsx';
import { captureWizardLink } from './features/policies/index.ts';
import { applyTheme, readTheme } from './lib/theme.ts';
import { persistenceRequester } from './lib/storage.ts';
import { telemetryIds } from './lib/telemetry-ids.ts';
import { warmFormats } from './lib/format.ts';
import { preloadLazyPages } from './lib/lazy-page.tsx';
import { createWriteGuard, guardCommands } from './lib/write-guard.ts';
import { watchBackgroundSync } from '../workers/background-sync-client.ts';
import './styles.css';

// First, before anything renders: a pinned Light or Dark theme (System needs no script).
applyTheme(readTheme(window.localStorage), document);

const root = document.getElementById('root');
if (!root) throw new Error('Ledgerline mounts into #root, which index.html must provide');

const platform = bootPlatform({
  userAgent: navigator.userAgent,
  search: window.location.search,
  storage: window.localStorage,
  now: Date.now(),
});
// A `business_id` link selects this tab's business before anything reads it; the tab keeps it
// (sessionStorage), so the URL drops it and a later switch in this tab is not undone on reload.
const tabBusiness = tabBusinessId(window.location.search, window.sessionStorage);
const cleanUrl = withoutBusinessParam(window.location.href);
if (cleanUrl) window.history.replaceState(window.history.state, '', cleanUrl);
// A reminder's link carries a token in its fragment (issue 29): into memory and off the address
// before the router (a sign-in `redirect=`) or telemetry (page views) could read it.
captureWizardLink(window);

const store = createAppStore(navigator.onLine, platform);
// Commands hold a beforeunload guard while their durable write is in flight (issue 8).
const client = guardCommands(createDataClient(), createWriteGuard(window));
const router = createAppRouter(store);
// Its own task (issue 33): adding the chunks' preload links costs a phone's CPU as much as the rest of
// the entry; fetched from the next task, they still arrive while the data boots.
const openingPath = window.location.pathname;
window.setTimeout(() => preloadOpeningChunks(router, openingPath), 0);
void bootData(client, store, window, { tabBusinessId: tabBusiness });

// First-party telemetry: page views after each navigation, identity once signed in.
const telemetry = startBrowserTelemetry(client, window);
router.subscribe('onResolved', () => telemetry.page(window.location.href));
let identified: string | null = null;
// After the first successful sign-in, ask once that the browser keep the mirror and the outbox.
const requestPersistence = persistenceRequester(navigator);
store.subscribe(() => {
  const state = store.get();
  if (state.session) void requestPersistence();
  // §2: a firm user's token (the console, or inside a client) identifies with its firm's id (issue 31).
  const ids = telemetryIds(state);
  const key = ids && JSON.stringify([ids, state.surfaceSession?.identity_id]);
  if (!ids || key === identified) return;
  identified = key;
  telemetry.identify(ids);
});

// Commands waiting: the service worker delivers them once the app is closed (issue 26).
watchBackgroundSync(store, window);

// Pages other than sign-in load on first visit (lib/lazy-page.tsx), from the service worker's
// precache offline. Until a worker controls this page (a first visit), fetch them while the network
// is here: once someone is signed in (the sign-in page needs none of them, and parsing them there
// would hold a phone's CPU while the person types), one chunk per idle moment.
if (!navigator.serviceWorker?.controller) void whenSignedIn(store).then(() => preloadLazyPages(idleMoment));

// A signed-in first screen formats counts, days and money: its formatters are built before it
// renders, each in a task of its own (issue 33), not inside the render of its first rows.
void whenSignedIn(store).then(() => {
  const currency = store.get().session?.business.currency;
  warmFormats(currency ? [currency] : [], (build) => window.setTimeout(build, 0));
});

function whenSignedIn(appStore: AppStore): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const state = appStore.get();
      if (state.boot !== 'ready' || !signedInSession(state)) return false;
      stop();
      resolve();
      return true;
    };
    const stop = appStore.subscribe(() => void check());
    check();
  });
}

function idleMoment(): Promise<void> {
  return new Promise((resolve) => {
    if (window.requestIdleCallback) window.requestIdleCallback(() => resolve(), { timeout: 2_000 });
    else window.setTimeout(resolve, 50);
  });
}

// A transition: React renders the first screen in slices that yield to the browser, not as one
// long task (issue 33: total blocking time on a phone's CPU).
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <DataProvider client={client} store={store}>
        <RouterProvider router={router} />
      </DataProvider>
    </StrictMode>,
  );
});
