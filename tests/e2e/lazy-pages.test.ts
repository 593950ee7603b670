/**
 * Route-level code splitting (issue 13, first-load size): every page but the landing ones is its
 * own chunk (src/lib/lazy-page.tsx). On a first visit no service worker controls the page yet,
 * so its precache cannot answer; the app fetches the page chunks once the data is open
 * (main.tsx → preloadLazyPages). Going offline without a reload must still open every page.
 * A later, controlled load is covered by the offline reloads of cards, receipts and reimbursements.
 */
import { describe, expect, it, onTestFailed } from 'vitest';
import { mainJsGzipKb } from '../../bench/bundle-size.ts';
import { openSection, pollPage, setNetwork, signIn, waitForSyncStatus } from '../support/browser.ts';
import { browser, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
/** The lazy pages an admin reaches from the main navigation: link name → heading. */
const PAGES: readonly [link: string, heading: string][] = [
  ['Cards', 'Cards'],
  ['Receipts', 'Receipts'],
  ['Reimbursements', 'Reimbursements'],
  ['Approvals', 'Approvals'],
  ['Settings', 'Settings'],
];

useServerAndBrowser({ transactions: 200 }, 180_000);

describe('lazy pages', () => {
  it('keep the settings sections and the travel tables out of the first load', async () => {
    // A feature's index.ts is imported by the router statically: whatever it re-exports lands in
    // the first load (issue 27 once put the 290-airport table and the travel policy editor there,
    // +26 KB gzip). The Settings page imports its sections from their own files instead.
    const { files, kb } = await mainJsGzipKb('dist');
    const names = files.map((f) => f.file);
    expect(names.filter((f) => /airports|travel|policy|settings|support-access/.test(f)), names.join(', ')).toEqual([]);
    // The first load measured 205.6 KB gzip before travel (bench main_js_gzip_kb, 2026-11-29).
    // 2026-11-29 evening: 216.5 KB with issue 29's bell (+1.1 KB), the comment thread's loader (+0.5 KB),
    // the reminder link's token capture and the suggestion dismissal (+1.3 KB) in the first load. The
    // guard moved to 217 once; issue 33 owns bringing it back under 210 (the error catalogue's 4.6 KB
    // and the spend-request labels are candidates to load later).
    // 2026-11-29 night: 219.1 KB with issue 30 (+0.6 KB of treasury, banking and flex errors in the
    // error catalogue's chunk, now 5.2 KB; the Treasury, bank-account, statement and flex routes and
    // the transfer commands' words in the entry). Guard 220; issue 33 still owns < 210.
    // 2026-11-30 evening: 222.6 KB with issue 32's third session (+3.5 KB: the transaction drawer's
    // attendee split section and copy-receipts offer, which work offline and so ride with the
    // landing page's drawer; the profile picture in the user menu; the start page read by `/`; the
    // new routes' entries). Guard 223; issue 33 owns < 210 (the split section can load with the
    // drawer once the precache is proven on a first visit; the error catalogue's chunk).
    // 2026-11-30 night (issue 33): 177.6 KB. The first load is what the sign-in page needs: React
    // (66 KB), the router (25.8), zod (26.5, the routes' URL parsers and the schemas the sign-in
    // calls build), the entry (34.4: the route tree, the boot screen, the sign-in page and its MFA,
    // SSO and link forms, the worker client) and the error catalogue (5.6). The signed-in shell, the
    // transactions page with its drawer and virtual list, and the other guest pages are lazy chunks.
    expect(names.filter((f) => /^assets\/(app-layout|transactions-page|virtual|sign-up-page|invite-page)-/.test(f)), names.join(', ')).toEqual([]);
    expect(kb, `first load: ${names.join(', ')}`).toBeLessThan(180);
  });

  it('open offline on a first visit, before the service worker controls the page', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`));
    const { page, context } = browser;
    await page.goto('/sign-in');
    await signIn(page, USER, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    expect(await page.evaluate(() => navigator.serviceWorker.controller), 'a first visit is not controlled by the service worker').toBeNull();
    // The page chunks are fetched in an idle moment after boot.
    await pollPage(
      page,
      () => performance.getEntriesByType('resource').filter((e) => /\/assets\/(cards|receipts|reimbursements|approvals|settings)-page-/.test(e.name)).length >= 5,
      undefined,
      { timeout: 30_000 },
    );

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    for (const [link, heading] of PAGES) {
      await openSection(page, link);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ state: 'visible' });
      await page.getByTestId('page-skeleton').waitFor({ state: 'detached' });
    }
    await setNetwork(context, true);
  });
});
