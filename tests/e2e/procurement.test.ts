/**
 * Issue 28, end to end on real parts only: the built PWA served by the real server (PGlite) in
 * headless Chromium, the server never mocked.
 *
 * The demo employee asks for a $500 one-time budget offline (shown at once, waiting to sync,
 * through an offline reload); online it lands once, PENDING_APPROVAL. The manager approves it in a
 * second browser (the confirmation says a virtual card comes of it): the request is FULFILLED with
 * exactly one $500 card. The employee's card shows $500.00 left; $120 spent through the simulated
 * network leaves $380.00, shown offline from the mirror. Then a purchase order (asked and approved
 * through the API): the AP clerk receives 3 of 5 in the UI; a bill for 5 naming the PO line is
 * held back with the reason in its drawer (Pay now disabled; the API's pay-now answers
 * PROCUREMENT_7013); the last 2 received, the bill matches and is paid once through the
 * confirmation. axe finds nothing serious on Requests (with the New request dialog) or the PO page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createBill, payBillsNow } from '../../schema/api/calls-bills.ts';
import { simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { createSpendRequest } from '../../schema/api/calls-procurement.ts';
import { apiSignIn, type ApiClient } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import {
  launchBrowser, reloadOffline, setNetwork, signIn, signInForOffline, waitForSyncStatus, type BrowserSession,
} from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';
import { approveThroughChain } from '../support/procurement-data.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const MANAGER = 'manager@demo.test';
const CLERK = 'apclerk@demo.test';
const PASSWORD = 'demo-password-1';
const BUDGET = 'E2E offsite supplies budget';
const PURCHASE = 'E2E ergonomic keyboards';
const LINE = 'Ergonomic keyboard';
/** A seeded vendor with bank details (payable). */
const VENDOR = 'Pacific Precision Machining';

useServerAndBrowser({ transactions: 30 }, 180_000);

const day = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const requestsOf = (userId: string, description: string) =>
  server.db.query<{ id: string; status: string; amount: string; currency: string; limit_interval: string }>(
    `SELECT id::text AS id, status, amount::text AS amount, currency, limit_interval FROM spend_requests
      WHERE business_id = $1 AND user_id = $2 AND description = $3 AND NOT deleted`,
    [server.businessId, userId, description],
  );

const poOf = async (requestId: string) =>
  (await server.db.query<{ id: string; po_number: string; status: string; line_id: string }>(
    `SELECT p.id::text AS id, p.po_number, p.status, l.id::text AS line_id FROM purchase_orders p
       JOIN purchase_order_lines l ON l.purchase_order_id = p.id WHERE p.spend_request_id = $1`,
    [requestId],
  ))[0];

/** The PO page's summary line ("… · 3 of 5 received") and its status pill, as shown. */
const poSummary = (page: Page) => page.getByRole('main').textContent().then((t) => (t ?? '').replace(/\s+/g, ' '));

describe('procurement, end to end', () => {
  it('a $500 budget asked offline becomes a card once approved; $120 spent leaves $380 shown offline', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);

    // Offline: Requests → New request → General expense, $500 one time.
    await page.goto('/requests');
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor();
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await page.getByRole('button', { name: 'New request' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New request' });
    await dialog.getByRole('radio', { name: /General expense/ }).check();
    await dialog.getByLabel('Amount (card limit)').fill('500.00');
    await dialog.getByLabel('Interval').selectOption({ label: 'One time (total)' });
    await dialog.getByLabel('Description').fill(BUDGET);
    expect(await axeFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Submit for approval' }).click();
    await dialog.waitFor({ state: 'detached' });

    const list = page.getByRole('grid', { name: 'My requests' });
    const row = list.getByRole('row').filter({ hasText: BUDGET });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain(WAITING_TO_SYNC);
    expect(await requestsOf(employee.id, BUDGET)).toEqual([]);

    // An offline reload still shows it, from the service worker and the mirror.
    expect((await reloadOffline(browser))?.fromServiceWorker()).toBe(true);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toContain(WAITING_TO_SYNC);
    expect(await row.textContent()).toContain('$500.00');

    // Online: it syncs once, waiting for approval.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).not.toContain(WAITING_TO_SYNC);
    const stored = await requestsOf(employee.id, BUDGET);
    expect(stored).toMatchObject([{ status: 'PENDING_APPROVAL', amount: '50000', currency: 'USD', limit_interval: 'TOTAL' }]);
    const requestId = stored[0]!.id;

    // The manager approves it in a second browser; the confirmation says a card comes of it.
    let manager: BrowserSession | undefined;
    try {
      manager = await launchBrowser({ baseURL: server.url });
      printBrowserLogsOnFailure({ browser, manager });
      const m = manager.page;
      await m.goto('/');
      await signIn(m, MANAGER, PASSWORD);
      await waitForSyncStatus(m, 'All changes synced', 120_000);
      await m.goto('/approvals');
      await m.getByRole('grid', { name: 'Approvals' }).getByRole('row').filter({ hasText: BUDGET }).click({ timeout: 30_000 });
      const drawer = m.getByRole('dialog').filter({ hasText: BUDGET }).first();
      await drawer.getByRole('button', { name: 'Approve', exact: true }).click();
      const confirm = m.getByRole('dialog', { name: /^Approve 1 spend request/ });
      await expect.poll(() => confirm.textContent()).toMatch(/Approving issues a \$500\.00 virtual card/);
      await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
      await waitForSyncStatus(m, 'All changes synced', 60_000);
      await expect.poll(async () => (await requestsOf(employee.id, BUDGET))[0]?.status, { timeout: 30_000 }).toBe('FULFILLED');
    } finally {
      await manager?.close();
    }
    const cards = await server.db.query<{ id: string; display_name: string; last_four: string; limit_amount: string; limit_currency: string; user_id: string }>(
      `SELECT id::text AS id, display_name, last_four, limit_amount::text AS limit_amount, limit_currency, user_id::text AS user_id
         FROM cards WHERE business_id = $1 AND spend_request_id = $2`,
      [server.businessId, requestId],
    );
    expect(cards).toMatchObject([{ limit_amount: '50000', limit_currency: 'USD', user_id: employee.id }]);
    const card = cards[0]!;

    // The employee's Cards: the new card with all of it left.
    await page.goto('/cards');
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
    const tile = page.getByRole('article', { name: `${card.display_name} ••${card.last_four}` });
    await expect.poll(() => tile.textContent(), { timeout: 60_000 }).toContain('$500.00 left');

    // $120 through the simulated card network, then offline the mirror shows $380.00 left.
    const api: ApiClient = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const spent = await api.call(simulateAuthorization, {
      params: { card_uuid: card.id }, body: { amount: 12_000, merchant: 'E2E Office Depot', merchant_category: 'Office Supplies' },
    });
    expect(spent.approved).toBe(true);
    await expect.poll(() => tile.textContent(), { timeout: 60_000 }).toContain('$380.00 left');
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await setNetwork(context, false);
    expect((await reloadOffline(browser))?.fromServiceWorker()).toBe(true);
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor({ timeout: 30_000 });
    await expect.poll(() => tile.textContent(), { timeout: 30_000 }).toContain('$380.00 left');
    await setNetwork(context, true);
  }, 420_000);

  it('3 of 5 received: a bill for 5 is refused payment with the reason; the last 2 received, it matches and pays once; axe clean', async () => {
    const employeeApi = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const [vendor] = await server.db.query<{ id: string }>(
      'SELECT id::text AS id FROM vendors WHERE business_id = $1 AND name = $2', [server.businessId, VENDOR],
    );
    const asked = await employeeApi.call(createSpendRequest, {
      body: {
        type: 'PRODUCT_OR_SERVICE', amount: { amount: 10_000, currency: 'USD' }, description: PURCHASE, vendor_id: vendor!.id,
        line_items: [{ description: LINE, quantity: 5, unit_price: 2_000 }],
      },
    });
    expect(asked.status).toBe('PENDING_APPROVAL');
    await approveThroughChain(server, asked.id);
    const po = await poOf(asked.id);
    expect(po).toMatchObject({ status: 'OPEN' });

    // The AP clerk receives 3 of the 5 on the PO page.
    let clerk: BrowserSession | undefined;
    try {
      clerk = await launchBrowser({ baseURL: server.url });
      printBrowserLogsOnFailure({ clerk });
      const c = clerk.page;
      await c.goto('/');
      await signIn(c, CLERK, PASSWORD);
      await waitForSyncStatus(c, 'All changes synced', 120_000);
      await c.goto(`/purchase-orders/${po!.id}`);
      await c.getByRole('heading', { name: po!.po_number, level: 1 }).waitFor({ timeout: 60_000 });
      const receive = async (n: number) => {
        await c.getByRole('button', { name: 'Receive items' }).click();
        const d = c.getByRole('dialog', { name: `Receive items on ${po!.po_number}` });
        await d.getByLabel(`${LINE}: received now`).fill(String(n));
        await d.getByRole('button', { name: 'Record receipt' }).click();
        await d.waitFor({ state: 'detached' });
        await waitForSyncStatus(c, 'All changes synced', 60_000);
      };
      await receive(3);
      await expect.poll(() => poSummary(c), { timeout: 30_000 }).toContain('3 of 5 received');
      expect(await poSummary(c)).toContain('Partially received');
      await expect.poll(async () => (await poOf(asked.id))?.status).toBe('PARTIALLY_RECEIVED');
      expect(await axeFindings(c)).toEqual([]);

      // A bill for all 5 naming the PO line, approved through its chain: held back with the reason.
      const clerkApi = await apiSignIn(server.url, CLERK, PASSWORD);
      const bill = await clerkApi.call(createBill, {
        body: {
          vendor_id: vendor!.id, invoice_number: 'INV-E2E-PO-5', invoice_date: day(-1), due_date: day(20), currency: 'USD',
          purchase_order_id: po!.id, submit: true,
          line_items: [{ description: LINE, amount: 10_000, po_line_id: po!.line_id, quantity: 5, unit_price: 2_000 }],
        },
      });
      await approveThroughChain(server, bill.id);
      const billStatus = async () => (await server.db.query<{ status: string }>('SELECT status FROM bills WHERE id = $1', [bill.id]))[0]!.status;
      expect(await billStatus()).toBe('APPROVED');

      await c.getByRole('link', { name: 'Invoice INV-E2E-PO-5' }).click({ timeout: 60_000 });
      const drawer = c.getByRole('dialog').filter({ hasText: 'Purchase order match' });
      await expect.poll(() => drawer.textContent(), { timeout: 60_000 }).toContain('received 3');
      const payNow = drawer.getByRole('button', { name: 'Pay now' });
      expect(await payNow.isDisabled()).toBe(true);
      expect(await payNow.getAttribute('title')).toContain('received 3');
      const refused = await clerkApi.call(payBillsNow, { body: { bill_ids: [bill.id] } });
      expect(refused.results[0]).toMatchObject({ ok: false, error_v2: { error_code: 'PROCUREMENT_7013' } });

      // The last 2 arrive: the bill matches and is paid once through its confirmation.
      await c.goto(`/purchase-orders/${po!.id}`);
      await c.getByRole('heading', { name: po!.po_number, level: 1 }).waitFor();
      await receive(2);
      await expect.poll(() => poSummary(c), { timeout: 30_000 }).toContain('5 of 5 received');
      await expect.poll(async () => (await poOf(asked.id))?.status).toBe('RECEIVED');
      await c.getByRole('link', { name: 'Invoice INV-E2E-PO-5' }).click();
      await expect.poll(() => drawer.textContent(), { timeout: 60_000 }).toContain('Matched');
      expect(await drawer.textContent()).not.toContain('Mismatched');
      await expect.poll(() => payNow.isEnabled(), { timeout: 30_000 }).toBe(true);
      await payNow.click();
      const confirm = c.getByRole('dialog', { name: /^Pay \$100\.00 to / });
      await confirm.getByRole('button', { name: 'Pay $100.00' }).click();
      await confirm.waitFor({ state: 'detached' });
      await expect.poll(billStatus, { timeout: 30_000 }).toBe('SCHEDULED');
      const live = await server.db.query(
        `SELECT 1 FROM bill_payments WHERE bill_id = $1 AND status IN ('PENDING', 'SETTLED')`, [bill.id],
      );
      expect(live).toHaveLength(1);
    } finally {
      await clerk?.close();
    }
  }, 420_000);
});
