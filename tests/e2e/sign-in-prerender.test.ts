/**
 * Issue 33: a first visit's /sign-in paints from its HTML. The build renders the real sign-in page
 * into dist/sign-in.html (build/prerender.ts), the server sends it for that address
 * (server/http/static.ts), and the app's own page replaces the copy in one commit, keeping what
 * was typed into it and the focus (src/lib/prerendered.ts).
 */
import { describe, expect, it } from 'vitest';
import { mainNav } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 50 });

describe('the prerendered sign-in page', () => {
  it('is in the HTML the server sends for /sign-in, and only there', async () => {
    const signIn = await (await fetch(`${server.url}/sign-in?redirect=%2Fcards`)).text();
    expect(signIn).toMatch(/<div id="prerendered">(<link [^>]*>)?<main class="sign-in"><form class="sign-in-card"/);
    expect(signIn).toMatch(/<label class="field"><span class="field-label">Email<\/span><input type="email"/);
    expect(signIn).toMatch(/<label class="field"><span class="field-label">Password<\/span><input type="password"/);
    expect(signIn).toContain('Create an account');
    // The CSP allows no inline script and no style attribute: the copy carries neither.
    expect(signIn.match(/<script\b[^>]*>/g) ?? []).toEqual([expect.stringMatching(/ src="\/assets\//)]);
    expect(signIn).not.toMatch(/\sstyle=/);
    for (const path of ['/', '/transactions', '/sign-up']) {
      expect(await (await fetch(`${server.url}${path}`)).text(), path).not.toContain('id="prerendered"');
    }
  });

  it('shows the form before the app runs; the app takes it over with what was typed and the focus', async () => {
    const { page } = browser;
    printBrowserLogsOnFailure({ browser });
    // The app's scripts held back: what a slow phone shows before its JavaScript has arrived.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const scripts = /\/assets\/.*\.js$/;
    await page.route(scripts, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/sign-in', { waitUntil: 'commit' });
    await page.locator('#prerendered').getByLabel('Email').fill(USER);
    // A tap before the app runs would be lost (or submit natively): the copy's buttons wait disabled.
    const copyButtons = page.locator('#prerendered').getByRole('button');
    expect(await copyButtons.count()).toBeGreaterThan(1);
    for (const b of await copyButtons.all()) expect(await b.isDisabled()).toBe(true);
    expect(await page.locator('#root').evaluate((el) => getComputedStyle(el).display), 'the app stays hidden while the copy shows').toBe('none');

    release();
    await page.locator('#prerendered').waitFor({ state: 'detached', timeout: 60_000 });
    await page.unroute(scripts);
    const email = page.getByLabel('Email');
    expect(await email.inputValue()).toBe(USER);
    expect(await email.evaluate((el) => el === document.activeElement && el.closest('#root') !== null)).toBe(true);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await mainNav(page).waitFor({ state: 'visible', timeout: 60_000 });
    expect(browser.cspViolations).toEqual([]);
  });
});
