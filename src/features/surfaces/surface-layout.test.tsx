import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { createAppStore, sessionState } from '../../data-access/app-state.ts';
import { DataProvider } from '../../data-access/data-context.tsx';
import type { DataClient, SurfaceSessionInfo } from '../../data-access/types.ts';
import { SurfaceLayout } from './surface-layout.tsx';

/** Issue 31: a surface's shell on the server renderer, at an address, for a session. */
const VENDOR: SurfaceSessionInfo = {
  surface: { kind: 'VENDOR_PORTAL', network_vendor_id: 'v1' }, identity_id: 'i1', email: 'ap@acme.test', label: 'Acme Supplies', scopes: ['default'],
};

async function render(path: string, session: SurfaceSessionInfo, platform: 'web' | 'mobile' = 'web') {
  const root = createRootRoute();
  const routes = ['/console/$', '/vendor-portal/$', '/application/$'].map((p) => createRoute({ getParentRoute: () => root, path: p, component: SurfaceLayout }));
  const router = createRouter({ routeTree: root.addChildren(routes), history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  const store = createAppStore(true, platform);
  store.set({ ...sessionState(session), boot: 'ready' });
  return renderToStaticMarkup(
    <DataProvider client={{} as DataClient} store={store}>
      <RouterProvider router={router} />
    </DataProvider>,
  );
}

describe('SurfaceLayout', () => {
  it('shows the portal’s navigation with the current page marked, the account, and the page', async () => {
    const html = await render('/vendor-portal/profile', VENDOR);
    expect(html).toContain('aria-label="Vendor portal"');
    for (const nav of ['Payments', 'Profile', 'Payers', 'Changes']) expect(html).toContain(`>${nav}</a>`);
    const current = [...html.matchAll(/<a [^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
    expect(current).toEqual(['Profile']);
    expect(html).toContain('Account: </span>');
    expect(html).toContain('Acme Supplies');
    // The portal's own pages (vendor-portal/, issue 31 H) load as their own chunk.
    expect(html).toContain('Loading…');
    expect(html).not.toContain('This page is not built yet.');
  });

  it('says an unknown address is no page, with the way home', async () => {
    const html = await render('/vendor-portal/nope', VENDOR);
    expect(html).toContain('Page not found');
    expect(html).toContain('href="/vendor-portal"');
  });

  it('is not supported inside the mobile wrapper', async () => {
    const html = await render('/vendor-portal', VENDOR, 'mobile');
    expect(html).toContain('This user is not supported on the mobile app');
    expect(html).not.toContain('aria-label="Vendor portal"');
  });

  it('shows a firm user the console’s pages', async () => {
    const firm: SurfaceSessionInfo = { ...VENDOR, surface: { kind: 'ADVISOR_CONSOLE', external_firm_id: 'f1', external_firm_user_id: 'fu1' }, label: 'Ledger & Co' };
    // The one console address still the shell's own: a client's page (opening a client switches into it).
    const html = await render('/console/clients/0b0b0b0b-0000-4000-8000-000000000001', firm);
    expect(html).toContain('<h1 id="surface-page-title">Client</h1>');
    expect(html).toContain('>Team</a>');
    expect(html).toContain('>Applications</a>');
    expect(html).toContain('>Referrals</a>');
    expect(html).not.toContain('>Application</a>');
  });

  it.each(['/console/team', '/console/applications', '/console/referrals', '/console/settings'])('loads the console’s built page %s as the console’s own chunk', async (path) => {
    const firm: SurfaceSessionInfo = { ...VENDOR, surface: { kind: 'ADVISOR_CONSOLE', external_firm_id: 'f1', external_firm_user_id: 'fu1' }, label: 'Ledger & Co' };
    const html = await render(path, firm);
    expect(html).toContain('Loading…');
    expect(html).not.toContain('This page is not built yet.');
  });
});
