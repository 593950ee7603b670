/**
 * Issue 33: on a fresh device the employee's first rows took seconds on a phone, and the table
 * said "No transactions match. Try a shorter search or clear the filters." while it waited. Here
 * the real server's first feed answer is held back (a Playwright route that delays the request,
 * never a mock): at 390 px the list says it is downloading, a search typed before the first page
 * arrives says so too, and "No transactions match" never shows; then the rows come.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it, onTestFailed } from 'vitest';
import { signIn, waitForSyncStatus } from '../support/browser.ts';
import { grid, rowAt, searchBox } from '../support/transactions-page.ts';
import { browser, server, useServerAndBrowser } from '../support/e2e-app.ts';

const PHONE = { width: 390, height: 844 };
const EMPLOYEE = 'employee@demo.test';
const FEED = /\/v1\/auth\/sync\/changes/;

useServerAndBrowser({ transactions: 300 }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

describe('the first page on a fresh phone', () => {
  it('says it is downloading while the first feed page is on its way, with a search typed before it arrives, never "No transactions match"', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`));
    const { page, context } = browser;
    // Every moment the list's "no match" words are on screen, from the document's first paint.
    await context.addInitScript(() => {
      const seen: number[] = [];
      (window as unknown as { noMatchSeen: number[] }).noMatchSeen = seen;
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('No transactions match')) seen.push(performance.now());
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const held: Route[] = [];
    let open = false;
    await context.route(FEED, (route) => {
      if (open) void route.continue().catch(() => undefined);
      else held.push(route);
    });
    const [{ merchant }] = (await server.db.query<{ merchant: string }>(
      `SELECT t.merchant_name AS merchant FROM transactions t JOIN spend_users u ON u.id = t.user_id
        WHERE u.email = $1 AND NOT t.deleted ORDER BY t.occurred_at DESC LIMIT 1`, [EMPLOYEE],
    )) as [{ merchant: string }];

    await page.goto('/sign-in');
    await signIn(page, EMPLOYEE, 'demo-password-1');
    await grid(page).waitFor({ state: 'visible', timeout: 60_000 });
    const downloading = page.getByTestId('list-downloading');
    await downloading.getByText('Downloading your data for offline use', { exact: false }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);

    // A search typed before the first page arrives: still downloading, not "no match".
    await searchBox(page).fill(merchant.toLowerCase());
    await expect.poll(() => page.url(), { timeout: 10_000 }).toContain('q=');
    await page.waitForTimeout(1_500);
    expect(await downloading.isVisible()).toBe(true);
    expect(await downloading.textContent()).toContain('this list fills in as the download goes on');
    expect(await page.getByText('No transactions match').count()).toBe(0);

    // The real server's answer goes through: the search's rows arrive, then the whole mirror.
    open = true;
    for (const route of held.splice(0)) void route.continue().catch(() => undefined);
    await rowAt(page, 0).waitFor({ state: 'visible', timeout: 60_000 });
    expect((await rowAt(page, 0).textContent())?.toLowerCase()).toContain(merchant.toLowerCase());
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    expect(await page.evaluate(() => (window as unknown as { noMatchSeen: number[] }).noMatchSeen.length)).toBe(0);
  });
});
