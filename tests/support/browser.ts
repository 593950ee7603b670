/**
 * Launches Debian's Chromium for the end-to-end tests and the benchmark, and drives the app
 * through its accessible names (the ones fixed by issue 2), never CSS classes.
 *
 * A persistent context on a fresh temporary profile directory per test file: the service worker,
 * IndexedDB and the Cache API then behave as in a real profile (an incognito-like context would
 * throw the installed service worker away), yet no two runs share state.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium switches: headless, no network chatter of its own, no sandbox (CI runs as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

export interface BrowserSession {
  context: BrowserContext;
  /** The context's first page (a persistent context always opens one). */
  page: Page;
  userDataDir: string;
  /** Console errors, page errors and failed requests, to print when a test fails. */
  logs: string[];
  /** Closes the browser and deletes its profile directory. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Resolves relative page.goto() URLs (the test server's origin). */
  baseURL?: string;
  viewport?: { width: number; height: number };
}

export async function launchBrowser(opts: LaunchOptions = {}): Promise<BrowserSession> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'ledgerline-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
      baseURL: opts.baseURL,
      viewport: opts.viewport ?? { width: 1280, height: 900 },
      serviceWorkers: 'allow',
    });
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
  const logs: string[] = [];
  const watch = (page: Page) => collectLogs(page, logs);
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    userDataDir,
    logs,
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

function collectLogs(page: Page, logs: string[]): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') logs.push(`[console.${msg.type()}] ${msg.text()}`);
  });
  page.on('pageerror', (err) => logs.push(`[pageerror] ${err.message}`));
  page.on('requestfailed', (req) =>
    logs.push(`[requestfailed] ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ''}`),
  );
}

/** Signs in through the sign-in form and waits for the app shell's main navigation. */
export async function signIn(page: Page, email: string, password: string, timeout = 30_000): Promise<void> {
  await page.getByLabel('Email').fill(email, { timeout });
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await mainNav(page).waitFor({ state: 'visible', timeout });
}

export const mainNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Main' });

/**
 * The sync indicator. Other live regions (info toasts) also have role status, so the indicator
 * is the status region whose whole text is one of its phrases (src/app/sync-text.ts).
 */
export const SYNC_TEXT = /^\s*(Offline|Connecting|Signed out|\d+ pending|All changes synced|Sync needs attention)\s*$/;

export function syncStatus(page: Page, text: string | RegExp = SYNC_TEXT): Locator {
  return page.getByRole('status').filter({ hasText: text }).first();
}

/** Waits until the sync indicator shows `text` (a substring or pattern). */
export async function waitForSyncStatus(page: Page, text: string | RegExp, timeout = 60_000): Promise<string> {
  const loc = syncStatus(page, text);
  await loc.waitFor({ state: 'visible', timeout });
  return (await loc.textContent())?.trim() ?? '';
}

/** "N pending" in the sync indicator → N (null when it shows no pending count). */
export function pendingCount(statusText: string): number | null {
  const m = /(\d+)\s+pending/i.exec(statusText);
  return m ? Number(m[1]) : null;
}

/**
 * Waits for the service worker to be installed and active, and for it to control this page.
 * On first load a new worker controls only pages loaded after it activated (unless it claims
 * clients), so the page is reloaded once while online when it is not yet controlled.
 */
export async function waitForServiceWorkerControl(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.state === 'activated';
    },
    undefined,
    { timeout },
  );
  const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (controlled) return;
  await page.reload({ waitUntil: 'load' });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout });
}
