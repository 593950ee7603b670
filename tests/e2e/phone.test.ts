/**
 * Issue 8, "Responsive layout": the built app on a phone (390×844, touch, mobile) in Chromium.
 * The transactions list renders as cards, nothing scrolls sideways (also at 360 px), the sync
 * status and the user menu stay on screen, the detail sheet's Save and Close buttons are on
 * screen and work, the bulk coding and step-up sheets' buttons are on screen, and no keyboard
 * hint shows. An admin's bottom bar holds four entries and a "More" menu button for the rest
 * (Escape closes it back onto the button). Issue 25: the Reimbursements "New" menu opens wholly on
 * screen at 390 and 360 px with Mileage and Per diem one tap away; the first tap on a claim or an
 * approval after scrolling opens it and the list keeps its place (within 48 px) while the drawer
 * is open and once it closed; every bar label is whole; the lists (Transactions, Reimbursements,
 * Approvals, People) scroll with the page at 390 and 360 px (as tall as their rows, the document
 * scrolls, the header sticks under the top bar, rows still windowed) and j/k keep the current
 * row clear of the bars.
 * Issue 28's pages on a phone: phone-procurement.test.ts.
 *
 * One server and one browser for the file; waits poll through DevTools (pollPage), never
 * page.waitForFunction (the app's CSP forbids eval).
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { launchBrowser, mainNav, pollPage, signIn, syncStatus, type BrowserSession } from '../support/browser.ts';
import { grid, rowAt, selectionBar, waitForTotal } from '../support/transactions-page.ts';
import { expectInViewport, expectNoHorizontalScroll, expectTouchTarget, expectWhole, rowInView, scrollList, visibleKeyboardHints } from '../support/phone-page.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const TRANSACTIONS = 40;
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 740 };

let server: TestServer;
let browser: BrowserSession;

beforeAll(async () => {
  // Generated claims besides the demo ones: the admin's own list and the approvals inbox are
  // long enough to scroll.
  server = await startTestServer({ serveDist: true, transactions: TRANSACTIONS, reimbursements: 150 });
  browser = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
  await browser.page.emulateMedia({ reducedMotion: 'reduce' });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('phone layout, end to end', () => {
  it('signs in to a card list with no sideways scroll, sync status and user menu on screen', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`));
    const { page } = browser;
    await page.goto('/sign-in');
    await expectNoHorizontalScroll(page, 'sign-in');
    await signIn(page, USER, PASSWORD);
    await waitForTotal(page, TRANSACTIONS);
    await expect(page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches)).resolves.toBe(true);

    // Cards: the grid keeps its roles; a row is a tall card as wide as the screen, no wider.
    await rowAt(page, 0).waitFor({ state: 'visible' });
    const card = (await rowAt(page, 0).boundingBox())!;
    expect(card.height).toBeGreaterThanOrEqual(60);
    expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width);
    const cells = rowAt(page, 0).getByRole('gridcell');
    const visible = await cells.evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
    expect(visible).toBe(5); // check, date, merchant, amount, status
    // Rows stay reachable by role and name (the name is the card's text).
    const merchant = ((await rowAt(page, 0).getByRole('gridcell').nth(2).textContent()) ?? '').trim();
    expect(merchant).not.toBe('');
    await expect(grid(page).getByRole('row', { name: merchant }).first().isVisible()).resolves.toBe(true);

    await expectNoHorizontalScroll(page, 'transactions at 390');
    await expectInViewport(syncStatus(page), 'sync status');
    const account = page.getByRole('button', { name: /^Account: / });
    await expectInViewport(account, 'user menu');
    await expectTouchTarget(account, 'user menu');
    // The main navigation is a bottom bar, its links still named as on desktop.
    const nav = mainNav(page);
    await expectInViewport(nav, 'main navigation');
    expect((await nav.boundingBox())!.y).toBeGreaterThan(PHONE.height / 2);
    await expectTouchTarget(nav.getByRole('link', { name: 'Transactions' }), 'Transactions link');
    // An admin has many entries: the bar shows the first four whose whole labels fit (each the
    // page's own name: "Reimbursements", as its heading) and a "More" menu button for the rest.
    const links = nav.getByRole('link');
    const labels = await links.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim()));
    expect(labels).toEqual(['Transactions', 'Cards', 'Receipts', 'Reimbursements'].slice(0, labels.length));
    expect(labels.length).toBeGreaterThanOrEqual(3);
    for (const link of await links.all()) {
      await expectInViewport(link, `${(await link.textContent())?.trim()} link`);
      await expectWhole(link, `${(await link.textContent())?.trim()} link`);
    }
    const more = nav.getByRole('button', { name: 'More', exact: true });
    await expectInViewport(more, 'More button');
    await expectTouchTarget(more, 'More button');
    expect(await more.getAttribute('aria-haspopup')).toBe('menu');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    expect(await visibleKeyboardHints(page)).toEqual([]);
  });

  it('opens a card as a full-screen sheet whose Save and Close are on screen and work', async () => {
    const { page } = browser;
    await rowAt(page, 1).getByRole('gridcell').nth(2).tap();
    const sheet = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    const memo = sheet.getByLabel('Memo');
    await memo.waitFor({ state: 'visible', timeout: 30_000 });
    await expectNoHorizontalScroll(page, 'detail sheet');
    const save = sheet.getByRole('button', { name: 'Save' });
    const close = sheet.getByRole('button', { name: 'Close details' });
    await expectInViewport(save, 'Save');
    await expectInViewport(close, 'Close details');
    await expectTouchTarget(close, 'Close details');

    await memo.fill('phone memo');
    await save.tap();
    await pollPage(page, () => {
      const dialog = [...document.querySelectorAll('[role="dialog"]')].find((d) => d.querySelector('[aria-label="Close details"]'));
      const button = [...(dialog?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === 'Save');
      return button?.disabled === true; // saved: the form matches the transaction again
    }, undefined);
    await expect(memo.inputValue()).resolves.toBe('phone memo');

    await close.tap();
    await sheet.waitFor({ state: 'detached' });
  });

  it('selects cards and opens bulk coding as a bottom sheet with its buttons on screen', async () => {
    const { page } = browser;
    for (const i of [0, 2, 3]) await rowAt(page, i).getByRole('checkbox').tap();
    const bar = selectionBar(page);
    await bar.waitFor({ state: 'visible' });
    await expectNoHorizontalScroll(page, 'selection bar');
    const code = bar.getByRole('button', { name: 'Code 3' });
    await expectInViewport(code, 'Code 3…');
    await code.tap();
    const dialog = page.getByRole('dialog', { name: 'Code 3 transactions' });
    await dialog.waitFor({ state: 'visible' });
    await expectNoHorizontalScroll(page, 'bulk dialog');
    for (const name of ['Cancel', /^Apply to 3/]) {
      const button = dialog.getByRole('button', { name });
      await expectInViewport(button, `bulk dialog ${String(name)}`);
      await expectTouchTarget(button, `bulk dialog ${String(name)}`);
    }
    const sheet = (await dialog.boundingBox())!;
    expect(Math.round(sheet.y + sheet.height)).toBe(PHONE.height); // a bottom sheet
    await dialog.getByRole('button', { name: 'Cancel' }).tap();
    await dialog.waitFor({ state: 'detached' });
    expect(await visibleKeyboardHints(page)).toEqual([]);
  });

  it('at 360 px nothing scrolls sideways and the header still fits', async () => {
    const { page } = browser;
    await page.setViewportSize(NARROW);
    await pollPage(page, (w) => window.innerWidth === w, NARROW.width);
    await expectNoHorizontalScroll(page, 'transactions at 360');
    await expectInViewport(syncStatus(page), 'sync status at 360');
    await expectInViewport(page.getByRole('button', { name: /^Account: / }), 'user menu at 360');
    const card = (await rowAt(page, 0).boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(NARROW.width);

    // The rest of the navigation is in the More menu: it opens above the bar on its first item,
    // Escape closes it and gives focus back to the button, and an item goes to its page.
    const more = mainNav(page).getByRole('button', { name: 'More', exact: true });
    await more.tap();
    const pages = page.getByRole('menu', { name: 'More pages' });
    await pages.waitFor({ state: 'visible' });
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    // (Approvals keeps its pending count: "Approvals, 8 waiting".)
    // (Missing items shows while the admin has something missing under the demo's expense policy: tests/e2e/policies-workflows.test.ts.)
    expect((await pages.getByRole('menuitem').allTextContents()).map((t) => t.split(',')[0]!.trim()).filter((t) => t !== 'Missing items')).toEqual([
      'Travel', 'Requests', 'Budgets', 'Approvals', 'Bills', 'Purchase orders', 'Vendors', 'Reports', 'Accounting', 'Treasury', 'Workflows', 'Team', 'Settings',
    ]);
    await expectInViewport(pages, 'More menu');
    await expectNoHorizontalScroll(page, 'More menu open at 360');
    await pollPage(page, () => document.activeElement?.getAttribute('role') === 'menuitem' && document.activeElement.textContent?.startsWith('Travel') === true, undefined);
    await page.keyboard.press('Escape');
    await pages.waitFor({ state: 'detached' });
    await pollPage(page, () => document.activeElement?.textContent?.trim() === 'More', undefined);
    await more.tap();
    await pages.getByRole('menuitem', { name: 'Settings' }).tap();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'visible' });
    await expectNoHorizontalScroll(page, 'settings at 360');

    // The step-up dialog is a bottom sheet with its buttons in reach too.
    await page.getByLabel('New password', { exact: true }).fill('another-long-password-1');
    await page.getByLabel('Confirm new password').fill('another-long-password-1');
    await page.getByRole('button', { name: 'Change password' }).tap();
    const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
    await stepUp.waitFor({ state: 'visible', timeout: 30_000 });
    await expectNoHorizontalScroll(page, 'step-up dialog at 360');
    for (const name of ['Cancel', 'Confirm']) await expectInViewport(stepUp.getByRole('button', { name, exact: true }), `step-up ${name}`);
    await stepUp.getByRole('button', { name: 'Cancel', exact: true }).tap();
    await stepUp.waitFor({ state: 'detached' });

    // The user menu opens on screen.
    await page.getByRole('button', { name: /^Account: / }).tap();
    const menu = page.getByRole('menu');
    await menu.waitFor({ state: 'visible' });
    await expectInViewport(menu, 'user menu popover');
    await expectNoHorizontalScroll(page, 'user menu open at 360');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
  });
  it('opens the Reimbursements "New" menu wholly on screen at 390 and 360 px, each type one tap away', async () => {
    const { page } = browser;
    await page.goto('/reimbursements');
    await page.getByRole('heading', { name: 'Reimbursements', level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect(page.title()).resolves.toBe('Reimbursements · Ledgerline');
    for (const [size, type, title] of [
      [PHONE, 'Mileage', 'New mileage claim'],
      [NARROW, 'Per diem', 'New per-diem claim'],
      [PHONE, 'Out-of-pocket', 'New out-of-pocket claim'],
    ] as const) {
      await page.setViewportSize(size);
      await pollPage(page, (w) => window.innerWidth === w, size.width);
      const trigger = page.getByRole('button', { name: /^New/ }).first();
      await trigger.tap();
      const menu = page.getByRole('menu', { name: 'New reimbursement' });
      await menu.waitFor({ state: 'visible' });
      await expectInViewport(menu, `New menu at ${size.width}`);
      for (const item of await menu.getByRole('menuitem').all()) await expectInViewport(item, `${(await item.textContent())?.trim()} at ${size.width}`);
      await expectNoHorizontalScroll(page, `New menu open at ${size.width}`);
      // One tap on the item opens its form.
      await menu.getByRole('menuitem', { name: type }).tap();
      const form = page.getByRole('dialog', { name: title });
      await form.waitFor({ state: 'visible' });
      await form.getByRole('button', { name: 'Cancel' }).tap();
      await form.waitFor({ state: 'detached' });
    }
    await page.setViewportSize(PHONE);
    await pollPage(page, (w) => window.innerWidth === w, PHONE.width);
  });

  it('scrolls the page, not a box, through each list at 390 and 360 px: the list as tall as its rows, still windowed', async () => {
    const { page } = browser;
    for (const size of [PHONE, NARROW]) {
      await page.setViewportSize(size);
      await pollPage(page, (w) => window.innerWidth === w, size.width);
      for (const [path, grid, total] of [
        ['/transactions', 'Transactions', TRANSACTIONS],
        ['/reimbursements', 'Reimbursements', 150],
        ['/approvals', 'Approvals', 0],
        ['/team', 'People', 0],
      ] as const) {
        await page.goto(path);
        await page.getByRole('grid', { name: grid }).locator('[role="row"][aria-rowindex="8"]').waitFor({ state: 'attached', timeout: 30_000 });
        const where = `${grid} at ${size.width}`;
        const before = await page.evaluate((name) => {
          const el = document.querySelector<HTMLElement>(`[role="grid"][aria-label="${name}"]`)!;
          return {
            top: document.scrollingElement!.scrollTop,
            box: el.getBoundingClientRect().height,
            // The grid is no scroll box of its own: nothing inside it scrolls.
            inner: el.scrollHeight - el.clientHeight,
            viewport: innerHeight,
          };
        }, grid);
        expect(before.top, `${where} starts at the top`).toBe(0);
        expect(before.box, `${where}: the list is as tall as its rows (${before.box} px), taller than the ${before.viewport} px screen`).toBeGreaterThan(before.viewport);
        expect(before.inner, `${where}: the grid does not scroll inside itself`).toBeLessThanOrEqual(1);
        // The list scrolls with the page: its scroller is the document.
        const scrolled = await scrollList(page, grid, 500);
        const documentTop = await page.evaluate(() => document.scrollingElement!.scrollTop);
        expect(documentTop, `${where}: the page scrolled`).toBeGreaterThan(0);
        expect(scrolled, `${where}: the list's scroller is the page`).toBe(documentTop);
        // The rows in the middle of the screen are there (the window follows the page's scroll),
        // the column header stays under the top bar, and only a window of the rows exists.
        await rowInView(page, grid);
        const sticky = await page.evaluate((name) => {
          const header = document.querySelector(`[role="grid"][aria-label="${name}"] .grid-header`)!.getBoundingClientRect();
          const bar = document.querySelector('.topbar')!.getBoundingClientRect();
          return { header: header.top, bar: bar.bottom, rows: document.querySelectorAll(`[role="grid"][aria-label="${name}"] [role="row"]`).length };
        }, grid);
        expect(Math.abs(sticky.header - sticky.bar), `${where}: header under the top bar`).toBeLessThanOrEqual(2);
        if (total > 100) expect(sticky.rows, `${where}: only a window of ${total} rows rendered`).toBeLessThan(60);
        await expectNoHorizontalScroll(page, where);
      }
    }
    await page.setViewportSize(PHONE);
    await pollPage(page, (w) => window.innerWidth === w, PHONE.width);
  });

  it('keeps the current row on screen, clear of the bars, when j/k move it through a page-scrolled list', async () => {
    const { page } = browser;
    await page.goto('/transactions');
    await rowAt(page, 8).waitFor({ state: 'attached', timeout: 30_000 });
    await grid(page).focus();
    for (let i = 0; i < 20; i++) await page.keyboard.press('j');
    const place = async () =>
      page.evaluate(() => {
        const g = document.querySelector('[role="grid"][aria-label="Transactions"]')!;
        const id = g.getAttribute('aria-activedescendant');
        const row = id ? document.getElementById(id)?.getBoundingClientRect() : undefined;
        const header = g.querySelector('.grid-header')!.getBoundingClientRect();
        const nav = document.querySelector('nav[aria-label="Main"]')!.getBoundingClientRect();
        return { id, top: row?.top ?? -1, bottom: row?.bottom ?? -1, headerBottom: header.bottom, navTop: nav.top, scroll: document.scrollingElement!.scrollTop };
      });
    let at = await pollPage(page, (prefix) => {
      const id = document.querySelector('[role="grid"][aria-label="Transactions"]')!.getAttribute('aria-activedescendant');
      return id === `${prefix}20` ? id : null;
    }, 'txn-row-');
    let p = await place();
    expect(at).toBe(p.id);
    expect(p.scroll, 'the page scrolled to follow the current row').toBeGreaterThan(0);
    expect(p.top, 'row 20 below the sticky header').toBeGreaterThanOrEqual(p.headerBottom - 1);
    expect(p.bottom, 'row 20 above the bottom bar').toBeLessThanOrEqual(p.navTop + 1);
    for (let i = 0; i < 15; i++) await page.keyboard.press('k');
    at = await pollPage(page, (prefix) => {
      const id = document.querySelector('[role="grid"][aria-label="Transactions"]')!.getAttribute('aria-activedescendant');
      return id === `${prefix}5` ? id : null;
    }, 'txn-row-');
    p = await place();
    expect(p.top, 'row 5 below the sticky header').toBeGreaterThanOrEqual(p.headerBottom - 1);
    expect(p.bottom, 'row 5 above the bottom bar').toBeLessThanOrEqual(p.navTop + 1);
  });

  it('walks the six Treasury pages at 390 and 360 px: nothing sideways, the sub-navigation and each page\'s action on screen, its form a sheet with its buttons in reach', async () => {
    const { page } = browser;
    const pages = [
      ['/treasury', 'Treasury', null],
      ['/treasury/transfers', 'Transfers', ['New transfer', 'New transfer', 'Preview transfer']],
      ['/treasury/automations', 'Automations', ['New automation', 'New automation', 'Review']],
      ['/treasury/bank-accounts', 'Bank accounts', ['Link bank account', 'Link bank account', null]],
      ['/treasury/statements', 'Statements', null],
      ['/treasury/flex', 'Flex', null],
    ] as const;
    for (const size of [PHONE, NARROW]) {
      await page.setViewportSize(size);
      await pollPage(page, (w) => window.innerWidth === w, size.width);
      for (const [path, heading, form] of pages) {
        const where = `${path} at ${size.width}`;
        await page.goto(path);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
        await expectNoHorizontalScroll(page, where);
        // The sub-navigation may scroll inside itself, but the current page's tab is on screen.
        await expectInViewport(page.getByRole('navigation', { name: 'Treasury' }).locator('[aria-current="page"]'), `${where}: current tab`);
        if (!form) continue;
        const [button, dialogName, submit] = form;
        const open = page.getByRole('button', { name: button }).first();
        await expectInViewport(open, `${where}: ${button}`);
        await expectTouchTarget(open, `${where}: ${button}`);
        await open.tap();
        const dialog = page.getByRole('dialog', { name: dialogName });
        await dialog.waitFor({ state: 'visible' });
        await expectNoHorizontalScroll(page, `${where}: ${dialogName} open`);
        await expectInViewport(dialog.getByRole('button', { name: 'Cancel', exact: true }), `${where}: ${dialogName} Cancel`);
        if (submit) await expectInViewport(dialog.getByRole('button', { name: submit }), `${where}: ${dialogName} ${submit}`);
        await dialog.getByRole('button', { name: 'Cancel', exact: true }).tap();
        await dialog.waitFor({ state: 'detached' });
      }
    }
    await page.setViewportSize(PHONE);
    await pollPage(page, (w) => window.innerWidth === w, PHONE.width);
  });

  it('opens a claim, then an approval, on the first tap after scrolling the list (no jump to the top)', async () => {
    const { page } = browser;
    for (const [path, heading, grid, cell] of [
      ['/reimbursements', 'Reimbursements', 'Reimbursements', 1],
      ['/approvals', 'Approvals', 'Approvals', 1],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
      await page.getByRole('grid', { name: grid }).locator('[role="row"][aria-rowindex="12"]').waitFor({ state: 'attached', timeout: 30_000 });
      const scrolled = await scrollList(page, grid, 600);
      expect(scrolled, `${grid} scrolled`).toBeGreaterThan(0);
      const row = await rowInView(page, grid);
      const tapped = ((await row.getByRole('gridcell').nth(cell).textContent()) ?? '').trim();
      expect(tapped).not.toBe('');
      await row.getByRole('gridcell').nth(cell).tap();
      const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
      await drawer.waitFor({ state: 'visible', timeout: 10_000 });
      // The tapped row is the one opened (its description or claimant in the drawer); the list
      // stayed where it was: never back to the top, and within 48 px of where it was (the current
      // row may be nudged clear of the sticky bars), while the drawer is open and once it closed.
      // The drawer opens at once and fills as the record is read: wait for its words, not its frame.
      await expect.poll(() => drawer.textContent(), { timeout: 10_000 }).toContain(tapped);
      const after = await scrollList(page, grid, 0);
      expect(after, `${grid} did not jump to the top`).toBeGreaterThan(0);
      expect(Math.abs(after - scrolled), `${grid} kept its place with the drawer open (${scrolled} → ${after})`).toBeLessThanOrEqual(48);
      await drawer.getByRole('button', { name: 'Close details' }).tap();
      await drawer.waitFor({ state: 'detached' });
      await page.waitForTimeout(300); // a frame or two for any late scroll
      const closed = await scrollList(page, grid, 0);
      expect(Math.abs(closed - scrolled), `${grid} kept its place once the drawer closed (${scrolled} → ${closed})`).toBeLessThanOrEqual(48);
    }
  });
});
