/**
 * Issue 29, end to end (the built PWA on the real server, PGlite, headless Chromium at 390 px with
 * touch): the manager's bell counts an approval waiting from a claim their report submits through
 * the API. Offline, they open the panel and the notification: it goes to the approval, the count
 * drops at once and the row shows "Waiting to sync" (nothing reached the server). Online, the server
 * sets read_at once. "Mark all read" empties the count, offline-first, then on the server. axe on
 * the panel and the page; nothing scrolls sideways at 360 px.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { getNotificationPreferences } from '../../schema/api/calls-notifications.ts';
import { createOutOfPocket } from '../../schema/api/calls-reimbursements.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, setNetwork, signInForOffline, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';

const MANAGER = 'manager@demo.test';
const EMPLOYEE = 'employee@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 390, height: 844 };

let server: TestServer;
let session: BrowserSession;

beforeAll(async () => {
  server = await startTestServer({ transactions: 50, serveDist: true });
  session = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
}, 120_000);

afterAll(async () => {
  await session?.close();
  await server?.close();
});

const bellName = (n: number) => (n === 0 ? 'Notifications' : `Notifications, ${n > 99 ? '99+' : n} unread`);

describe('notifications centre, end to end', () => {
  it('a manager reads an approval waiting offline from the bell, synced once; mark all read', async () => {
    onTestFailed(() => console.error(`browser logs:\n${session.logs.slice(-60).join('\n')}`));
    const { page, context } = session;
    const manager = await userByEmail(server.db, server.businessId, MANAGER);
    const unreadOnServer = async () =>
      Number((await server.db.query<{ n: string }>('SELECT count(*)::text AS n FROM notifications WHERE owner_id = $1 AND read_at IS NULL AND NOT deleted', [manager.id]))[0]?.n);

    await signInForOffline(page, MANAGER, PASSWORD);

    // Their report submits a claim through the API: an approval waits for the manager, and so does a notification.
    const employee = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const today = new Date().toISOString().slice(0, 10);
    const claim = await employee.call(createOutOfPocket, { body: { merchant: 'E2E Bell Lunch', amount: 8400, currency: 'USD', transaction_date: today } });
    await expect.poll(async () => (await server.db.query(
      "SELECT 1 FROM notifications n JOIN approvals a ON a.id = n.subject_id WHERE n.owner_id = $1 AND n.kind = 'approval_waiting' AND a.object_id = $2",
      [manager.id, claim.id])).length, { timeout: 15_000 }).toBe(1);
    const [row] = await server.db.query<{ id: string; title: string; path: string; approval_id: string }>(
      `SELECT n.id::text, n.title, n.path, a.id::text AS approval_id FROM notifications n JOIN approvals a ON a.id = n.subject_id
        WHERE n.owner_id = $1 AND n.kind = 'approval_waiting' AND a.object_id = $2`, [manager.id, claim.id]);
    expect(row?.path).toBe(`/approvals?open=${row?.approval_id}`);
    const unread = await unreadOnServer();
    expect(unread).toBeGreaterThan(0);

    // The feed brings it; the bell says how many, in its name.
    const bell = page.getByTestId('notification-bell');
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 30_000 }).toBe(bellName(unread));

    // Offline at 390 px: open the panel and the notification.
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await bell.click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    const item = panel.getByTestId('notification-item').filter({ hasText: row!.title });
    await item.waitFor({ state: 'visible' });
    expect(await item.getAttribute('data-unread')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await item.click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(row!.path);
    await expect.poll(() => bell.getAttribute('aria-label')).toBe(bellName(unread - 1));
    await waitForSyncStatus(page, 'Offline');
    expect((await server.db.query<{ read_at: string | null }>('SELECT read_at FROM notifications WHERE id = $1', [row!.id]))[0]?.read_at).toBeNull();

    // The approval opened in its drawer (a full sheet on a phone); closed, the bell's panel again:
    // the row is read and says it waits to sync (never "synced").
    await page.getByRole('dialog').first().waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').first().waitFor({ state: 'detached' });
    await bell.click();
    const readItem = panel.getByTestId('notification-item').filter({ hasText: row!.title });
    await readItem.waitFor({ state: 'visible' });
    expect(await readItem.getAttribute('data-unread')).toBe('false');
    expect(await readItem.textContent()).toContain('Waiting to sync');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Online: the server sets read_at once.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const readAt = async () => (await server.db.query<{ read_at: Date | string | null }>('SELECT read_at FROM notifications WHERE id = $1', [row!.id]))[0]?.read_at ?? null;
    await expect.poll(readAt, { timeout: 15_000 }).not.toBeNull();
    const first = String(await readAt());
    expect(await unreadOnServer()).toBe(unread - 1);

    // Mark all read from the panel: the count goes at once, then on the server; the first one keeps its moment.
    await bell.click();
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(unreadOnServer, { timeout: 15_000 }).toBe(0);
    expect(String(await readAt())).toBe(first);

    // axe on the panel (desktop and phone sizes, both schemes), then on the page; 360 px never scrolls sideways.
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await panel.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await panel.getByRole('link', { name: 'View all' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor({ state: 'visible' });
    await page.getByRole('grid', { name: 'Notifications' }).getByText(row!.title).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('tab', { name: 'Unread' }).click();
    await page.getByText('You’re all caught up.').waitFor({ state: 'visible' });
    expect(await axeFindings(page)).toEqual([]);

    // Settings → Notifications: "Send me mail about" a kind, saved on the server as switched.
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Notifications' });
    const comments = section.getByRole('switch', { name: 'Comments' });
    await comments.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await comments.isChecked()).toBe(true);
    await comments.click();
    const api = await apiSignIn(server.url, MANAGER, PASSWORD);
    await expect.poll(async () => (await api.call(getNotificationPreferences)).email.comment, { timeout: 15_000 }).toBe(false);
    expect((await api.call(getNotificationPreferences)).email.approval_waiting).toBe(true);
  });
});
