/**
 * Issue 26: the outbox drains with no tab open. The built PWA (dist/) served by the real server
 * (server/testing.ts) in Debian's headless Chromium: an employee edits a memo offline, every tab
 * of the app is closed (the browser stays, so its service worker lives), the network comes back,
 * and the service worker delivers the command (Background Sync, sync/background-sync.ts) before
 * any page is opened again. Opened offline next, the app shows the change (the worker kept the
 * server's answer); online, everything synced and nothing is sent twice.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { OUTBOX_SYNC_TAG } from '../../sync/background-sync.ts';
import { launchBrowser, setNetwork, signIn, waitForServiceWorkerControl, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { rowAt, WAITING_TO_SYNC, COLUMNS } from '../support/transactions-page.ts';
import { businessSeq, idempotencyKeys, keyScope } from '../support/db-checks.ts';

const PASSWORD = 'demo-password-1';
const EMPLOYEE = 'employee@demo.test';
const MEMO = 'e2e background sync memo';

let server: TestServer;
let browser: BrowserSession;
const swLogs: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ serveDist: true });
  browser = await launchBrowser({ baseURL: server.url });
  const watch = (w: { url(): string; on(e: 'console', f: (m: { type(): string; text(): string }) => void): void }) =>
    w.on('console', (m) => swLogs.push(`[sw console.${m.type()}] ${m.text()}`));
  browser.context.serviceWorkers().forEach(watch);
  browser.context.on('serviceworker', watch);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function showLogsOnFailure() {
  onTestFailed(() => {
    const logs = [...browser.logs, ...swLogs];
    if (logs.length) console.error(`browser logs:\n${logs.slice(-80).join('\n')}`);
  });
}

const drawerOf = (page: Page) => page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });

async function memoOnServer(id: string): Promise<string | null> {
  const rows = await server.db.query<{ memo: string | null }>(
    'SELECT memo FROM transactions WHERE business_id = $1 AND id = $2',
    [server.businessId, id],
  );
  return rows[0]?.memo ?? null;
}

const story = { id: '', url: '', seqBefore: 0, keysBefore: 0, scope: '' };

describe('background sync: the outbox drains with no tab open', () => {
  it('an employee edits a memo offline; a background sync is registered for it', async () => {
    showLogsOnFailure();
    const { page, context } = browser;
    await page.goto('/');
    await signIn(page, EMPLOYEE, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await waitForServiceWorkerControl(page);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    story.scope = await keyScope(server.db, server.businessId, EMPLOYEE);
    story.seqBefore = await businessSeq(server.db, server.businessId);
    story.keysBefore = (await idempotencyKeys(server.db, story.scope)).length;

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.merchant).click();
    const drawer = drawerOf(page);
    await drawer.getByLabel('Memo').fill(MEMO);
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.getByText(WAITING_TO_SYNC).first().waitFor({ state: 'visible', timeout: 30_000 });
    story.id = new URL(page.url()).searchParams.get('open') ?? '';
    expect(story.id).toMatch(/^[0-9a-f-]{36}$/);
    story.url = page.url();

    // The page registered the outbox's sync tag with the service worker (Chromium has Background Sync).
    await expect.poll(() => page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync: { getTags(): Promise<string[]> } };
      return reg.sync.getTags();
    }), { timeout: 10_000 }).toContain(OUTBOX_SYNC_TAG);
    expect(await memoOnServer(story.id)).not.toBe(MEMO);
  });

  it('with every tab closed, the network returns and the service worker delivers the command', async () => {
    showLogsOnFailure();
    const { context } = browser;
    for (const p of context.pages()) await p.close({ runBeforeUnload: false });
    expect(context.pages()).toHaveLength(0);
    // Still offline: nothing reaches the server.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await memoOnServer(story.id)).not.toBe(MEMO);
    expect(context.serviceWorkers().length).toBeGreaterThan(0);

    await setNetwork(context, true);
    await expect.poll(() => memoOnServer(story.id), { timeout: 150_000, interval: 500 }).toBe(MEMO);
    // No page was opened to do it.
    expect(context.pages()).toHaveLength(0);
    expect(await businessSeq(server.db, server.businessId)).toBe(story.seqBefore + 1);
    const keys = (await idempotencyKeys(server.db, story.scope)).slice(story.keysBefore);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ state: 'done', status: 200 });
  });

  it('opened offline before any pull, the app shows the delivered change, not the row it replaced', async () => {
    showLogsOnFailure();
    const { context } = browser;
    await setNetwork(context, false);
    const page = await context.newPage();
    await page.goto(story.url);
    await waitForSyncStatus(page, 'Offline', 60_000);
    const drawer = drawerOf(page);
    // The service worker kept the server's answer; this open confirmed it (workers/delivered-commands.ts).
    await expect.poll(() => drawer.getByLabel('Memo').inputValue(), { timeout: 30_000 }).toBe(MEMO);
    expect(await drawer.getByText(WAITING_TO_SYNC).count()).toBe(0);
    await page.close({ runBeforeUnload: false });
    await setNetwork(context, true);
  });

  it('the next open shows everything synced, and the command was applied once', async () => {
    showLogsOnFailure();
    const { context } = browser;
    const page = await context.newPage();
    await page.goto(story.url);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const drawer = drawerOf(page);
    await expect.poll(() => drawer.getByLabel('Memo').inputValue(), { timeout: 30_000 }).toBe(MEMO);
    expect(await drawer.getByText(WAITING_TO_SYNC).count()).toBe(0);
    // Opening the app sent nothing again: one change, one key.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await businessSeq(server.db, server.businessId)).toBe(story.seqBefore + 1);
    expect((await idempotencyKeys(server.db, story.scope)).slice(story.keysBefore)).toHaveLength(1);
    expect(browser.cspViolations).toEqual([]);
  });
});
