/**
 * Accessibility of the built app in Chromium (issue 8): axe-core finds no serious or critical
 * violation on sign-in, transactions (with the detail drawer, then the bulk coding dialog open),
 * settings and the 404 page, with the system in light and in dark mode, each at desktop size and
 * at a phone's 390×844 (one browser, the viewport changed in place); and the keyboard
 * contract of the layers: Tab and Shift+Tab stay inside the bulk dialog, Escape closes it and
 * focus goes back to the button that opened it; Escape closes the step-up dialog and the user
 * menu (focus back on the menu button); a pinned theme survives a reload. Keyboard-first: '?'
 * opens the shortcuts dialog, 'c' the bulk dialog for the selection, Ctrl+K the command palette.
 *
 * axe is evaluated through DevTools (page.evaluate), not added as a <script>: the app's CSP
 * refuses inline scripts, and waits poll through DevTools too (pollPage) for the same reason.
 */
import { describe, expect, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney } from '../../schema/money.ts';
import { axeFindings } from '../support/axe.ts';
import { mainNav, openSection, pollPage, signIn } from '../support/browser.ts';
import { COLUMNS, grid, rowAt, searchBox, selectionBar, waitForTotal } from '../support/transactions-page.ts';
import { browser, server, useServerAndBrowser } from '../support/e2e-app.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const TRANSACTIONS = 40;
const DESKTOP = { width: 1280, height: 900 };

useServerAndBrowser({ transactions: TRANSACTIONS });

/**
 * No serious or critical violation in either colour scheme, at desktop size and at a phone's
 * (the phone layout is CSS on the same components, plus the grid's cards).
 */
async function expectAccessible(page: Page, where: string): Promise<void> {
  const found = await axeFindings(page, DESKTOP);
  expect(found, `${where}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
}

/**
 * The result's totals line as the server's rows make it (issue 25): the count, then each
 * currency's spend (PENDING and CLEARED only) with its own count, most rows first, then the
 * declined and reversed rows left out of spend.
 */
async function expectedTotals(where: string, params: unknown[]): Promise<string> {
  const rows = await server.db.query<{ currency: string; amount: string; n: number; excluded: number }>(
    `SELECT currency, coalesce(sum(amount) FILTER (WHERE state IN ('PENDING', 'CLEARED')), 0)::text AS amount,
            (count(*) FILTER (WHERE state IN ('PENDING', 'CLEARED')))::int AS n,
            (count(*) FILTER (WHERE state NOT IN ('PENDING', 'CLEARED')))::int AS excluded
       FROM transactions WHERE business_id = $1 AND NOT deleted ${where} GROUP BY currency ORDER BY n DESC, excluded DESC, currency`,
    [server.businessId, ...params],
  );
  const count = rows.reduce((a, r) => a + r.n + r.excluded, 0);
  const left = rows.reduce((a, r) => a + r.excluded, 0);
  const spend = rows.filter((r) => r.n > 0).map((r, i) => `${i === 0 ? 'Spend (pending and cleared): ' : ''}${formatMoney(Number(r.amount), r.currency)} across ${r.n.toLocaleString('en-US')} ${r.currency}`);
  return [
    `${count.toLocaleString('en-US')} ${count === 1 ? 'transaction' : 'transactions'}`,
    ...spend,
    ...(left > 0 ? [`${left.toLocaleString('en-US')} declined or reversed, not in spend`] : []),
  ].join(' · ');
}

/** What has focus, for assertions: inside which dialog, and its accessible text. */
const focusInfo = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      inDialog: el?.closest('[role="dialog"]')?.getAttribute('aria-labelledby') ?? null,
      text: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim(),
      tag: el?.tagName ?? null,
    };
  });

describe('accessibility, end to end', () => {
  it('sign-in has no serious violation', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`));
    const { page } = browser;
    await page.goto('/sign-in');
    await page.getByLabel('Email').waitFor({ state: 'visible', timeout: 30_000 });
    await expectAccessible(page, 'sign-in');
  });

  it('transactions, with the drawer and with the bulk dialog open, have no serious violation', async () => {
    const { page } = browser;
    await signIn(page, USER, PASSWORD);
    await waitForTotal(page, TRANSACTIONS);
    // Totals over the whole result, computed in the worker, as the server's rows add up.
    const totals = page.getByTestId('result-totals');
    await expect.poll(() => totals.textContent()).toBe(await expectedTotals('', []));
    await expectAccessible(page, 'transactions');

    await rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.merchant).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    await drawer.getByLabel('Memo').waitFor({ state: 'visible' });
    await expectAccessible(page, 'transactions with the drawer open');
    // Escape closes the drawer and focus goes back to the grid.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    expect(await grid(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await rowAt(page, 0).getByRole('checkbox').click();
    await rowAt(page, 2).getByRole('checkbox').click({ modifiers: ['Shift'] });
    // The selection's totals: the three newest rows (the default sort), as the server has them.
    const newest = await server.db.query<{ id: string }>(
      'SELECT id FROM transactions WHERE business_id = $1 AND NOT deleted ORDER BY occurred_at DESC, id DESC LIMIT 3',
      [server.businessId],
    );
    const selected = (await expectedTotals('AND id = ANY($2::uuid[])', [newest.map((r) => r.id)])).replace(/^3 transactions/, '3 selected');
    await expect.poll(() => page.getByTestId('selection-totals').textContent()).toBe(selected);
    await selectionBar(page).getByRole('button', { name: 'Code 3' }).click();
    const dialog = page.getByRole('dialog', { name: 'Code 3 transactions' });
    await dialog.waitFor({ state: 'visible' });
    await expectAccessible(page, 'transactions with the bulk dialog open');
  });

  it('keeps Tab inside the bulk dialog both ways; Escape closes it and focus returns to its opener', async () => {
    const { page } = browser;
    const dialog = page.getByRole('dialog', { name: 'Code 3 transactions' });
    const dialogId = await dialog.getAttribute('aria-labelledby');
    expect((await focusInfo(page)).inDialog).toBe(dialogId);
    const stops = await dialog.evaluate(
      (el) => el.querySelectorAll('select, input:not(:disabled), button:not(:disabled)').length,
    );
    for (const key of ['Tab', 'Shift+Tab']) {
      // More presses than the dialog has controls: focus must wrap, never leave.
      for (let i = 0; i < stops + 3; i++) {
        await page.keyboard.press(key);
        expect((await focusInfo(page)).inDialog, `${key} press ${i + 1}`).toBe(dialogId);
      }
    }
    // An open coding list is a layer of its own: Escape closes the list, not the dialog.
    const gl = dialog.getByRole('combobox', { name: 'GL account' });
    await gl.focus();
    await page.keyboard.press('ArrowDown');
    await dialog.getByRole('listbox', { name: 'GL account' }).waitFor({ state: 'visible' });
    await expectAccessible(page, 'bulk dialog with the GL account list open');
    await page.keyboard.press('Escape');
    await dialog.getByRole('listbox').waitFor({ state: 'detached' });
    await expect(dialog.isVisible()).resolves.toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const back = await focusInfo(page);
    expect(back.tag).toBe('BUTTON');
    expect(back.text).toBe('Code 3…');
    // The selection survived the cancelled dialog (Escape did not reach the table's "clear").
    await expect(selectionBar(page).isVisible()).resolves.toBe(true);
  });

  it('opens the user menu with arrows; Escape closes it and focus returns to the menu button', async () => {
    const { page } = browser;
    const trigger = page.getByRole('button', { name: /^Account: / });
    await trigger.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    await menu.waitFor({ state: 'visible' });
    expect((await focusInfo(page)).text).toBe('Sign out');
    await page.keyboard.press('ArrowDown');
    expect((await focusInfo(page)).text).toBe('Sign out of all devices');
    await page.keyboard.press('ArrowDown'); // wraps
    expect((await focusInfo(page)).text).toBe('Sign out');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect(trigger.getAttribute('aria-expanded')).resolves.toBe('false');
  });

  it("'?' opens the keyboard shortcuts dialog (no serious violation); Escape closes it", async () => {
    const { page } = browser;
    const trigger = page.getByRole('button', { name: /^Account: / });
    await trigger.focus();
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor({ state: 'visible' });
    // Generated from the registry, by group.
    await expect(dialog.getByRole('heading', { name: 'Global' }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('heading', { name: 'Transactions list' }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByText('Code the selected transactions').isVisible()).resolves.toBe(true);
    await expectAccessible(page, 'keyboard shortcuts dialog');
    // The page's keys stay quiet under it: c opens no bulk dialog.
    await page.keyboard.press('c');
    await expect(page.getByRole('dialog').count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);
    // Escape stopped at the dialog: the selection is still there.
    await expect(selectionBar(page).isVisible()).resolves.toBe(true);
  });

  it("'c' opens the bulk coding dialog for the selection, and says so when nothing is selected", async () => {
    const { page } = browser;
    await grid(page).focus();
    await page.keyboard.press('Escape'); // clears the earlier selection
    await selectionBar(page).waitFor({ state: 'detached' });
    await page.keyboard.press('c');
    await page.getByText('Select transactions to code').waitFor({ state: 'visible' });
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    await rowAt(page, 1).getByRole('checkbox').click();
    await grid(page).focus();
    await page.keyboard.press('c');
    const dialog = page.getByRole('dialog', { name: 'Code 1 transaction' });
    await dialog.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('Ctrl+K opens the command palette (no serious violation); "sett" + Enter goes to Settings', async () => {
    const { page } = browser;
    await grid(page).focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor({ state: 'visible' });
    const input = palette.getByRole('combobox', { name: 'Type a command' });
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    // A row is selected, so the page offers "Code selected".
    await expect(palette.getByRole('option', { name: /^Code selected \(1\)/ }).count()).resolves.toBe(1);
    await expectAccessible(page, 'command palette');
    // Escape closes it and focus goes back to the grid.
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    expect(await grid(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Control+k');
    await palette.waitFor({ state: 'visible' });
    await page.keyboard.type('sett');
    await expect(palette.getByRole('option', { selected: true }).textContent()).resolves.toContain('Go to Settings');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'visible' });
    await pollPage(page, () => window.location.pathname === '/settings', undefined);
  });

  it('settings has no serious violation; Escape closes the step-up dialog', async () => {
    const { page } = browser;
    await openSection(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'visible' });
    // Issue 32: the Profile's picture, name, zone and preferences forms and the device push row are loaded and checked too.
    await page.getByRole('button', { name: 'Save preferences' }).waitFor({ state: 'visible' });
    await page.getByRole('group', { name: 'Notifications on this device' }).waitFor({ state: 'visible' });
    await expectAccessible(page, 'settings');

    await page.getByLabel('New password', { exact: true }).fill('another-long-password-1');
    await page.getByLabel('Confirm new password').fill('another-long-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
    await stepUp.waitFor({ state: 'visible', timeout: 30_000 });
    await expectAccessible(page, 'settings with the step-up dialog open');
    await page.keyboard.press('Escape');
    await stepUp.waitFor({ state: 'detached' });

    await page.getByRole('group', { name: 'Download again' }).getByRole('button', { name: 'Download again' }).click();
    const again = page.getByRole('dialog', { name: 'Download offline data again?' });
    await again.getByRole('button', { name: 'Download again' }).waitFor({ state: 'visible' });
    await expectAccessible(page, 'settings with the Download again dialog open');
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });
  });

  it('keeps a pinned theme across a reload, applied before the app renders', async () => {
    const { page } = browser;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect(page.evaluate(() => document.documentElement.dataset.theme)).resolves.toBe('dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(14, 14, 17)'); // --bg, dark side
    await expect(page.getByRole('radio', { name: 'Dark' }).isChecked()).resolves.toBe(true);
    // The pinned Dark choice (not the system's) at both sizes, whichever scheme the system says.
    await expectAccessible(page, 'settings, pinned dark');
    await page.getByRole('radio', { name: 'System' }).check();
    await expect(page.evaluate(() => document.documentElement.dataset.theme ?? null)).resolves.toBeNull();
  });

  it('an unknown address shows a 404 inside the app shell with a way back', async () => {
    const { page } = browser;
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    await expect(mainNav(page).isVisible()).resolves.toBe(true);
    await expectAccessible(page, '404');
    await page.getByRole('link', { name: 'Go to transactions' }).click();
    await pollPage(page, () => window.location.pathname === '/transactions', undefined);
    await waitForTotal(page, TRANSACTIONS);
  });

  it('"Search transactions" in the palette from another page opens the list with its search box focused', async () => {
    const { page } = browser;
    await openSection(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor({ state: 'visible' });
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.waitFor({ state: 'visible' });
    await page.keyboard.type('search');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'detached' });
    await searchBox(page).waitFor({ state: 'visible' });
    await pollPage(page, () => document.activeElement?.id === 'txn-search', undefined);
  });

  it('cards — my cards, the All cards table with a selection, a card drawer and the Issue card form — have no serious violation', async () => {
    const { page } = browser;
    await openSection(page, 'Cards');
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor({ state: 'visible' });
    await page.getByRole('tab', { name: 'My cards' }).waitFor({ state: 'visible' });
    await expectAccessible(page, 'my cards');

    await page.getByRole('tab', { name: 'All cards' }).click();
    const cards = page.getByRole('grid', { name: 'All cards' });
    const rows = cards.getByRole('row').filter({ has: page.getByRole('gridcell') });
    await rows.first().waitFor({ state: 'visible' });
    await rows.nth(0).getByRole('checkbox').click();
    await rows.nth(1).getByRole('checkbox').click({ modifiers: ['Shift'] });
    await page.getByRole('region', { name: 'Selection' }).getByTestId('selection-count').filter({ hasText: '2 selected' }).waitFor({ state: 'visible' });
    await expectAccessible(page, 'all cards with a selection');

    await rows.nth(0).getByRole('gridcell').nth(2).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close card details' }) });
    await drawer.waitFor({ state: 'visible' });
    await expectAccessible(page, 'a card drawer');
    await drawer.getByRole('button', { name: 'Close card details' }).click();
    await drawer.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Issue card' }).first().click();
    const form = page.getByRole('dialog', { name: 'Issue card' });
    await form.getByLabel('Card name').waitFor({ state: 'visible' });
    await expectAccessible(page, 'the Issue card form');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  it('every page of the app — reimbursements, approvals, receipts, bills, vendors, team, reports, accounting, transactions, settings — has no serious violation at desktop and phone size', async () => {
    const { page } = browser;
    // [nav link, the page's heading, something the page shows once its data is there]
    const pages: [RegExp, string | RegExp, (p: Page) => ReturnType<Page['getByRole']>][] = [
      [/^Reimbursements/, 'Reimbursements', (p) => p.getByRole('grid', { name: 'Reimbursements' }).getByRole('row').nth(1)],
      [/^Approvals/, 'Approvals', (p) => p.getByRole('tab').first()],
      [/^Receipts/, 'Receipts', (p) => p.getByRole('tab').first()],
      [/^Bills/, 'Bills', (p) => p.getByRole('tab').first()],
      [/^Vendors/, 'Vendors', (p) => p.getByRole('button', { name: 'Add vendor' }).first()],
      [/^Team/, 'People', (p) => p.getByRole('grid').getByRole('row').nth(1)],
      [/^Reports/, /./, (p) => p.getByRole('heading', { level: 2 }).first()],
      [/^Accounting/, 'Accounting', (p) => p.getByRole('heading', { level: 2 }).first()],
      [/^Transactions/, 'Transactions', (p) => rowAt(p, 0)],
      [/^Settings/, 'Settings', (p) => p.getByRole('heading', { level: 2 }).first()],
    ];
    // Runs on its own too (-t): then it signs in first.
    if (!(await mainNav(page).isVisible())) {
      await page.goto('/sign-in');
      await signIn(page, USER, PASSWORD);
    }
    for (const [link, heading, ready] of pages) {
      await openSection(page, link);
      await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor({ state: 'visible', timeout: 30_000 });
      await ready(page).waitFor({ state: 'visible', timeout: 30_000 });
      // Soft: one run reports every page's findings, not only the first page's.
      const found = await axeFindings(page, DESKTOP);
      expect.soft(found, `${String(link)}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
    }
  });
});
