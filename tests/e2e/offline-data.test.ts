/**
 * Settings → Offline data, end to end (issue 8): what the device holds (rows, last sync, the
 * persistence answer), and "Download again": confirmed in a dialog, refused offline, then the
 * mirrored rows are emptied and the first mirror runs again from zero — the sync indicator says
 * "Downloading for offline use" again, then "All changes synced", and every row is back.
 *
 * Issue 25 §12: the download is held at the browser (the feed's answers wait at the context's
 * router) so it stays partial long enough to look at. Before the first page, the empty
 * Transactions list says it is downloading; with the first page stored and the next one still
 * held, the indicator shows the percentage and the list the rows arrived so far with their share
 * of the records. Never, at any moment of the download, "No transactions match".
 */
import type { Route } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { countTransactions } from '../support/db-checks.ts';
import { openSection, pollPage, setNetwork, signIn, waitForSyncStatus } from '../support/browser.ts';
import { waitForTotal } from '../support/transactions-page.ts';
import { browser, server, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
// More than one feed page (2,000 rows), so the download lasts long enough to be seen.
const TRANSACTIONS = 3_000;

useServerAndBrowser({ transactions: TRANSACTIONS }, 180_000);

const setting = (title: string) => browser.page.getByRole('group', { name: title });

describe('Settings → Offline data', () => {
  it('tells what this device holds, and downloads it all again on request', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`));
    const { page, context } = browser;
    const total = await countTransactions(server.db, server.businessId);
    await page.goto('/sign-in');
    await signIn(page, USER, PASSWORD);
    await waitForTotal(page, total, 120_000);
    await waitForSyncStatus(page, 'All changes synced', 120_000);

    await openSection(page, 'Settings');
    await page.getByRole('heading', { name: 'Offline data', level: 2 }).waitFor({ state: 'visible' });
    const rowsText = `${total.toLocaleString('en-US')} transactions`;
    await expect.poll(() => setting('Offline copy').textContent()).toContain(rowsText);
    await expect.poll(() => setting('Offline copy').textContent()).toContain('Complete: the app works with no network.');
    await expect.poll(() => setting('Last sync').textContent()).toContain('Up to date');
    await expect.poll(() => setting('Storage used').textContent()).toMatch(/\d (bytes|KB|MB|GB) on this device/);
    await expect.poll(() => setting('Keep offline data').textContent()).toMatch(/Kept:|Not guaranteed:/);

    // Offline, the dialog says why it cannot start (nothing would come back).
    await setNetwork(context, false);
    await setting('Download again').getByRole('button', { name: 'Download again' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download offline data again?' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByText('You are offline.').waitFor({ state: 'visible' });
    await expect(dialog.getByRole('button', { name: 'Download again' }).isDisabled()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);

    // Every text the sync indicator shows from here on, and whether any list ever said "No … match".
    await page.evaluate(() => {
      const seen: string[] = [];
      const w = window as unknown as { syncSeen: string[]; noMatchSeen: boolean };
      w.syncSeen = seen;
      w.noMatchSeen = false;
      new MutationObserver(() => {
        // The indicator's and the empty list's (both live regions).
        for (const el of document.querySelectorAll('[role="status"]')) seen.push((el.textContent ?? '').trim());
        if (document.querySelector('main')?.textContent?.includes('No transactions match')) w.noMatchSeen = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    // The feed's answers wait at the router until let through: `pass` pages go, the rest are held.
    const held: Route[] = [];
    let pass = 0;
    // A held request the app gave up on cannot be continued: nothing to let through then.
    const go = (route: Route) => void route.continue().catch(() => undefined);
    const hold = (route: Route) => {
      if (pass > 0) {
        pass -= 1;
        go(route);
      } else held.push(route);
    };
    const release = (n: number) => {
      pass += n;
      for (const route of held.splice(0, Math.min(n, held.length))) {
        pass -= 1;
        go(route);
      }
    };
    const FEED = /\/v1\/auth\/sync\/changes/;
    await context.route(FEED, hold);

    await setting('Download again').getByRole('button', { name: 'Download again' }).click();
    await dialog.waitFor({ state: 'visible' });
    await expect(dialog.textContent()).resolves.toContain('No changes are waiting to sync on this device.');
    await dialog.getByRole('button', { name: 'Download again' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 30_000 });

    // The first mirror runs again: "Downloading", then complete, with every row back.
    await pollPage(page, () => (window as unknown as { syncSeen: string[] }).syncSeen.some((t) => t.startsWith('Downloading for offline use')), undefined, { timeout: 60_000 });

    // Nothing has arrived yet (the first page is held): the empty list says it is downloading.
    await openSection(page, 'Transactions');
    const downloading = page.getByTestId('list-downloading');
    await downloading.getByText('Downloading your data for offline use', { exact: false }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await downloading.textContent()).toContain('this list fills in as the download goes on');

    // The first page goes through, the next is held. While that page is stored the list is still
    // empty and says the share (its total came with it: 0 %); then the rows arrived so far, with theirs.
    release(1);
    const status = await waitForSyncStatus(page, /^\s*Downloading for offline use · [1-9]\d?%\s*$/, 60_000);
    const percent = Number(/(\d+)%/.exec(status)![1]);
    expect(percent).toBeGreaterThan(0);
    expect(percent).toBeLessThan(100);
    const seen = await page.evaluate(() => (window as unknown as { syncSeen: string[] }).syncSeen);
    expect(seen.some((t) => /^↓?\s*Downloading your data for offline use · 0%/.test(t))).toBe(true);
    const notice = page.getByTestId('partial-results');
    await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toMatch(
      /^Showing [\d,]+ transactions downloaded so far \([\d,]+ of [\d,]+ records so far\): older ones are still downloading\.$/,
    );
    expect(await downloading.count()).toBe(0);
    expect(held.length).toBeGreaterThan(0);

    // Let the rest through.
    release(Number.MAX_SAFE_INTEGER);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await context.unroute(FEED, hold);
    expect(await page.evaluate(() => (window as unknown as { noMatchSeen: boolean }).noMatchSeen)).toBe(false);
    await openSection(page, 'Settings');
    await expect.poll(() => setting('Offline copy').textContent(), { timeout: 30_000 }).toContain(rowsText);
    await expect.poll(() => setting('Offline copy').textContent()).toContain('Complete:');
    await openSection(page, 'Transactions');
    await waitForTotal(page, total, 60_000);
  }, 300_000);
});
