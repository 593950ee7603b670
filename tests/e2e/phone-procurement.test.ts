/**
 * Issue 28 on a phone (390×844 and 360×740, touch, mobile) in Chromium: one walk through Requests
 * (a draft made, opened with one tap, edited in the "Edit draft" sheet and submitted), Budgets (a
 * budget card, its drawer, the New budget sheet) and Purchase orders (the list, a PO page with its
 * lines, actions and the Receive items sheet): nothing sideways, every sheet and its buttons on
 * screen, the first tap opens. Split from phone.test.ts (size limit); the same server and browser
 * set-up, its own sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { launchBrowser, pollPage, signIn, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { expectInViewport, expectNoHorizontalScroll, expectTouchTarget, visibleKeyboardHints } from '../support/phone-page.ts';
import { makeProcurementData } from '../support/procurement-data.ts';

const USER = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 740 };

let server: TestServer;
let browser: BrowserSession;

beforeAll(async () => {
  server = await startTestServer({ serveDist: true, transactions: 40 });
  browser = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
  await browser.page.emulateMedia({ reducedMotion: 'reduce' });
  await browser.page.goto('/sign-in');
  await signIn(browser.page, USER, PASSWORD);
  await waitForSyncStatus(browser.page, 'All changes synced', 120_000);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('procurement on a phone, end to end', () => {
  it('walks Requests, Budgets and a purchase order at 390 and 360 px: nothing sideways, sheets on screen, one tap opens', async () => {
    const { page } = browser;
    const DRAFT = 'Phone pass: team lunch';
    const data = await makeProcurementData(server, { budget: 'Phone pass budget', purchase: 'Phone pass monitors', line: 'Monitor arm' });
    const atSize = async (size: { width: number; height: number }) => {
      await page.setViewportSize(size);
      await pollPage(page, (w) => window.innerWidth === w, size.width);
    };
    /** A sheet's button: scrolled to within the sheet, then wholly on screen and big enough for a finger. */
    const reachable = async (button: ReturnType<typeof page.getByRole>, what: string) => {
      await button.scrollIntoViewIfNeeded();
      await expectInViewport(button, what);
      await expectTouchTarget(button, what);
    };

    // Requests at 390: a draft made in the New request sheet.
    await atSize(PHONE);
    await page.goto('/requests');
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor({ state: 'visible', timeout: 30_000 });
    await expectNoHorizontalScroll(page, 'requests at 390');
    const create = page.getByRole('button', { name: 'New request' }).first();
    await expectInViewport(create, 'New request');
    await create.tap();
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await dialog.waitFor({ state: 'visible' });
    await expectNoHorizontalScroll(page, 'New request sheet at 390');
    await dialog.getByRole('radio', { name: /General expense/ }).tap();
    await dialog.getByLabel('Amount (card limit)').fill('250.00');
    await dialog.getByLabel('Description').fill(DRAFT);
    for (const name of ['Cancel', 'Save as draft', 'Submit for approval']) await reachable(dialog.getByRole('button', { name, exact: true }), `New request ${name}`);
    await dialog.getByRole('button', { name: 'Save as draft' }).tap();
    await dialog.waitFor({ state: 'detached' });

    // Saved, the draft opens in its drawer; closed, one tap on its card opens it again; "Edit draft"
    // opens the same form, prefilled.
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close request' }) });
    await drawer.waitFor({ state: 'visible', timeout: 10_000 });
    await drawer.getByRole('button', { name: 'Close request' }).tap();
    await drawer.waitFor({ state: 'detached' });
    const row = page.getByRole('grid', { name: 'My requests' }).getByRole('row').filter({ hasText: DRAFT });
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    // The amount (the card's top right), not the hidden "Needed by" of a request with no date.
    await row.getByRole('gridcell').first().tap();
    await drawer.waitFor({ state: 'visible', timeout: 10_000 });
    await expect(drawer.textContent()).resolves.toContain(DRAFT);
    await expectNoHorizontalScroll(page, 'request drawer at 390');
    await expectInViewport(drawer.getByRole('button', { name: 'Close request' }), 'Close request');
    const edit = drawer.getByRole('button', { name: 'Edit draft' });
    await reachable(edit, 'Edit draft');
    await edit.tap();
    const editing = page.getByRole('dialog', { name: 'Edit draft' });
    await editing.waitFor({ state: 'visible' });
    await expect(editing.getByLabel('Amount (card limit)').inputValue()).resolves.toBe('250.00');
    await expect(editing.getByLabel('Description').inputValue()).resolves.toBe(DRAFT);
    await expectNoHorizontalScroll(page, 'Edit draft sheet at 390');
    await editing.getByLabel('Amount (card limit)').fill('275.00');
    const submit = editing.getByRole('button', { name: 'Submit for approval' });
    await reachable(submit, 'Edit draft Submit');
    await submit.tap();
    await editing.waitFor({ state: 'detached' });
    await expect.poll(() => drawer.textContent(), { timeout: 30_000 }).toContain('Pending approval');
    expect(await drawer.textContent()).toContain('$275.00');
    const stored = () => server.db.query<{ status: string; amount: string }>(
      'SELECT status, amount::text AS amount FROM spend_requests WHERE business_id = $1 AND description = $2 AND NOT deleted', [server.businessId, DRAFT],
    );
    await expect.poll(stored, { timeout: 30_000 }).toEqual([{ status: 'PENDING_APPROVAL', amount: '27500' }]);
    await drawer.getByRole('button', { name: 'Close request' }).tap();
    await drawer.waitFor({ state: 'detached' });

    // Budgets at 360: the card fits, one tap on its name opens the drawer, the New budget sheet fits.
    await atSize(NARROW);
    await expectNoHorizontalScroll(page, 'requests at 360');
    await page.goto('/budgets');
    const card = page.getByRole('article', { name: data.budget.name });
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    await expectNoHorizontalScroll(page, 'budgets at 360');
    const cardBox = (await card.boundingBox())!;
    expect(cardBox.x + cardBox.width, 'budget card inside the screen').toBeLessThanOrEqual(NARROW.width);
    const name = card.getByRole('button', { name: data.budget.name, exact: true });
    await expectTouchTarget(name, 'budget name');
    await name.tap();
    const budget = page.getByRole('dialog', { name: data.budget.name });
    await budget.waitFor({ state: 'visible', timeout: 10_000 });
    await expectNoHorizontalScroll(page, 'budget drawer at 360');
    await expectInViewport(budget.getByRole('button', { name: 'Close budget' }), 'Close budget');
    await reachable(budget.getByRole('button', { name: 'Request more' }), 'Request more');
    await budget.getByRole('button', { name: 'Close budget' }).tap();
    await budget.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'New budget' }).first().tap();
    const newBudget = page.getByRole('dialog', { name: 'New budget' });
    await newBudget.waitFor({ state: 'visible' });
    await expectNoHorizontalScroll(page, 'New budget sheet at 360');
    await reachable(newBudget.getByRole('button', { name: 'Cancel', exact: true }), 'New budget Cancel');
    await newBudget.getByRole('button', { name: 'Cancel', exact: true }).tap();
    await newBudget.waitFor({ state: 'detached' });

    // Purchase orders at 360, then the PO page at 360 and 390: lines, actions and the Receive items sheet.
    await page.goto('/purchase-orders');
    const po = page.getByRole('grid', { name: 'Purchase orders' }).getByRole('row').filter({ hasText: data.po.po_number });
    await po.waitFor({ state: 'visible', timeout: 30_000 });
    await expectNoHorizontalScroll(page, 'purchase orders at 360');
    await po.getByRole('gridcell').nth(1).tap();
    await page.getByRole('heading', { name: data.po.po_number, level: 1 }).waitFor({ state: 'visible', timeout: 10_000 });
    for (const size of [NARROW, PHONE]) {
      await atSize(size);
      await expectNoHorizontalScroll(page, `PO page at ${size.width}`);
      await expect(page.getByRole('main').textContent()).resolves.toContain(data.po.line);
      const actions = page.getByRole('group', { name: 'Purchase order actions' });
      for (const button of await actions.getByRole('button').all()) {
        const box = (await button.boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= size.width, `${(await button.textContent())?.trim()} inside ${size.width} px`).toBe(true);
      }
      const receive = actions.getByRole('button', { name: 'Receive items' });
      await reachable(receive, `Receive items at ${size.width}`);
      await receive.tap();
      const sheet = page.getByRole('dialog', { name: `Receive items on ${data.po.po_number}` });
      await sheet.waitFor({ state: 'visible' });
      await expectNoHorizontalScroll(page, `Receive items sheet at ${size.width}`);
      await expectInViewport(sheet.getByLabel(`${data.po.line}: received now`), `received now at ${size.width}`);
      for (const name of ['Cancel', 'Record receipt']) await reachable(sheet.getByRole('button', { name, exact: true }), `Receive ${name} at ${size.width}`);
      await sheet.getByRole('button', { name: 'Cancel', exact: true }).tap();
      await sheet.waitFor({ state: 'detached' });
    }
    expect(await visibleKeyboardHints(page)).toEqual([]);
  });
});
