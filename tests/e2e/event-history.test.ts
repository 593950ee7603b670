/**
 * Issue 32, event history end to end (the built PWA on the real server, PGlite, headless
 * Chromium): the demo employee, on a 360 px touch phone, opens one of their transactions; its
 * History section lists, newest first, the memo their manager changed from another device (named
 * "Firefox on Windows") and the transaction's creation by the system. They change the memo
 * themselves: the history shows it at once as theirs, "from this device", from → to. Offline the
 * section says history needs a connection. Nothing scrolls sideways; axe clean with it open.
 */
import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyActing } from '../../server/http/acting.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, setNetwork, signIn, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { printBrowserLogsOnFailure } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';

const EMPLOYEE = 'employee@demo.test';
const MANAGER = 'manager@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 360, height: 780 };

let server: TestServer;
let employee: BrowserSession;

beforeAll(async () => {
  server = await startTestServer({ transactions: 50, serveDist: true });
  employee = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
}, 120_000);

afterAll(async () => {
  await employee?.close();
  await server?.close();
});

const drawerOf = (page: Page): Locator => page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
const historyOf = (page: Page): Locator => drawerOf(page).getByRole('region', { name: 'History' });
const eventsOf = (page: Page) => historyOf(page).getByRole('listitem').allInnerTexts();

describe('event history, end to end', () => {
  it('shows who changed what from which device, newest first; the viewer\'s own edit as from this device; offline says so', async () => {
    printBrowserLogsOnFailure({ employee });
    const me = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const boss = await userByEmail(server.db, server.businessId, MANAGER);
    const [txn] = await server.db.query<{ id: string }>(
      `SELECT id::text FROM transactions WHERE business_id = $1 AND user_id = $2 AND state = 'CLEARED' ORDER BY occurred_at DESC, id LIMIT 1`,
      [server.businessId, me.id],
    );
    // The manager changed the memo from their laptop.
    const laptop = randomUUID();
    await server.db.query(
      "INSERT INTO devices (business_id, id, name, first_seen_at, last_seen_at) VALUES ($1, $2, 'Firefox on Windows', now(), now())",
      [server.businessId, laptop],
    );
    await server.db.transaction(async (tx) => {
      await applyActing(tx, { userId: boss.id, device: laptop });
      await tx.query("UPDATE transactions SET memo = 'Team lunch' WHERE id = $1", [txn!.id]);
    });

    const page = employee.page;
    await page.goto('/');
    await signIn(page, EMPLOYEE, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await page.goto(`/transactions?open=${txn!.id}`);
    await historyOf(page).waitFor({ timeout: 60_000 });
    await expect.poll(() => eventsOf(page), { timeout: 30_000 }).toHaveLength(2);
    const [changed, created] = await eventsOf(page);
    expect(changed).toMatch(/changed Memo/);
    expect(changed).toMatch(/→[\s\S]*“Team lunch”/);
    expect(changed).toContain('from Firefox on Windows');
    expect(created).toMatch(/System\s+created this transaction/);

    // Their own edit: theirs, from this device, newest first.
    const drawer = drawerOf(page);
    await drawer.getByLabel('Memo').fill('Client lunch');
    await drawer.getByRole('button', { name: 'Save' }).tap();
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await eventsOf(page))[0] ?? '', { timeout: 30_000 }).toMatch(/changed Memo[\s\S]*“Team lunch”[\s\S]*→[\s\S]*“Client lunch”[\s\S]*from this device/);
    expect((await eventsOf(page))[0]).toContain(me.name);
    // The exact time on focus (keyboard) as well as on hover.
    const time = historyOf(page).locator('time').first();
    await time.focus();
    expect(await time.getAttribute('title')).toMatch(/\d{4}/);

    await expectNoHorizontalScroll(page, 'the transaction drawer with its history');
    expect(await axeFindings(page)).toEqual([]);
    
    await setNetwork(employee.context, false);
    await waitForSyncStatus(page, 'Offline');
    await expect.poll(() => historyOf(page).innerText(), { timeout: 15_000 }).toContain('History needs a connection');
    await setNetwork(employee.context, true);
  });
});
