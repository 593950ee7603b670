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
import type { BrowserContext, ConsoleMessage, Locator, Page, Route, Worker } from 'playwright-core';

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
  /**
   * Content Security Policy violations seen anywhere in the context: `securitypolicyviolation`
   * events of every document, and console errors about the policy from pages, dedicated workers
   * and service workers (Chromium reports a blocked eval or load there too).
   */
  cspViolations: string[];
  /** Closes the browser and deletes its profile directory. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Resolves relative page.goto() URLs (the test server's origin). */
  baseURL?: string;
  viewport?: { width: number; height: number };
  /** Emulate a touch screen (touch events, `pointer: coarse`, no hover): a phone. */
  hasTouch?: boolean;
  /** Emulate a mobile browser (the meta viewport is honoured). */
  isMobile?: boolean;
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
      hasTouch: opts.hasTouch,
      isMobile: opts.isMobile,
      serviceWorkers: 'allow',
    });
  } catch (err) {
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
  const logs: string[] = [];
  const cspViolations: string[] = [];
  await watchCsp(context, cspViolations);
  const watch = (page: Page) => collectLogs(page, logs);
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    userDataDir,
    logs,
    cspViolations,
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

const CSP_MESSAGE = /content.security.policy|\[csp-violation\]/i;

/** Relays a realm's `securitypolicyviolation` events to its console, where the watchers below read them. */
function relayViolations() {
  globalThis.addEventListener('securitypolicyviolation', (event) => {
    const e = event as SecurityPolicyViolationEvent;
    console.error(`[csp-violation] ${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
  }, true);
}

async function watchCsp(context: BrowserContext, out: string[]): Promise<void> {
  await context.addInitScript(relayViolations);
  const take = (where: () => string) => (msg: ConsoleMessage) => {
    if (CSP_MESSAGE.test(msg.text())) out.push(`[${where()}] ${msg.text()}`);
  };
  const watchWorker = (kind: string) => (worker: Worker) => {
    worker.on('console', take(() => `${kind} ${worker.url()}`));
    // Init scripts do not run in workers: attach the relay as soon as the worker is seen.
    worker.evaluate(relayViolations).catch(() => undefined);
  };
  const watchPage = (page: Page) => {
    page.on('console', take(() => `page ${page.url()}`));
    page.on('worker', watchWorker('worker'));
  };
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  context.serviceWorkers().forEach(watchWorker('service worker'));
  context.on('serviceworker', watchWorker('service worker'));
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
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await mainNav(page).waitFor({ state: 'visible', timeout });
}

export const mainNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Main' });

/**
 * Opens a section of the main navigation as a person would: its link when the bar shows it,
 * else through "More" (the bar lists what fits its width; an admin's last sections are under
 * "More" below about 1,600 px).
 */
export async function openSection(page: Page, name: string | RegExp): Promise<void> {
  const nav = mainNav(page);
  const link = nav.getByRole('link', { name });
  const more = nav.getByRole('button', { name: 'More', exact: true });
  // The bar re-measures when the things beside it change width (the sync status going offline):
  // an entry can move into "More" between finding it and clicking it, so look again then.
  for (let attempt = 0; ; attempt++) {
    try {
      await link.or(more).first().waitFor({ state: 'visible' });
      if (await link.isVisible()) return await link.click({ timeout: 5_000 });
      await more.click({ timeout: 5_000 });
      return await page.getByRole('menu', { name: 'More pages' }).getByRole('menuitem', { name }).click({ timeout: 5_000 });
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** The main navigation's sections in order: the bar's links, then those under "More" (the menu opened and closed again). */
export async function sectionNames(page: Page): Promise<string[]> {
  const nav = mainNav(page);
  const names = (await nav.getByRole('link').allTextContents()).map((t) => t.trim());
  const more = nav.getByRole('button', { name: 'More', exact: true });
  if (!(await more.isVisible())) return names;
  await more.click();
  const menu = page.getByRole('menu', { name: 'More pages' });
  names.push(...(await menu.getByRole('menuitem').allTextContents()).map((t) => t.trim()));
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return names;
}

/**
 * From the start page: signs in, waits for the first mirror ("All changes synced", 2 min), then
 * opens `link` in the main navigation and waits for the page's `heading` (level 1).
 */
export async function signInAndOpen(page: Page, email: string, password: string, link: string, heading = link): Promise<void> {
  await page.goto('/');
  await signIn(page, email, password);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  await openSection(page, link);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/**
 * The sync indicator. Other live regions (info toasts) also have role status, so the indicator
 * is the status region whose whole text is one of its labels (src/lib/sync-status-text.ts,
 * issue 8): "All changes synced" only once the first mirror is complete, nothing waits and the
 * last pull succeeded.
 */
export const SYNC_TEXT =
  /^\s*(Offline|Can't reach Ledgerline|Connecting|Signed out|[\d,]+ changes? waiting to sync|Downloading for offline use(?: · \d+%)?|Syncing…|All changes synced|Needs attention)\s*$/;

/** "N changes waiting to sync" as a pattern for waitForSyncStatus. */
export const WAITING_TEXT = /^\s*[\d,]+ changes? waiting to sync\s*$/;

export function syncStatus(page: Page, text: string | RegExp = SYNC_TEXT): Locator {
  return page.getByRole('status').filter({ hasText: text }).first();
}

/** Waits until the sync indicator shows `text` (a substring or pattern). */
export async function waitForSyncStatus(page: Page, text: string | RegExp, timeout = 60_000): Promise<string> {
  const loc = syncStatus(page, text);
  try {
    await loc.waitFor({ state: 'visible', timeout });
  } catch (error) {
    // Say what the indicator showed instead, so a timeout tells a stuck queue from a slow one.
    const shown = await syncStatus(page).textContent({ timeout: 1_000 }).catch(() => null);
    // With it, what the indicator says beside its label and any toast (a refusal's server message).
    const detail = await page.locator('.sync').first().innerText({ timeout: 1_000 }).catch(() => null);
    const toasts = await page.getByRole('alert').allInnerTexts().catch(() => []);
    throw new Error(
      `sync indicator never showed ${String(text)} in ${timeout} ms; it shows ${JSON.stringify(shown?.trim() ?? null)}` +
        ` (${JSON.stringify(detail)}; alerts ${JSON.stringify(toasts)})`,
      { cause: error },
    );
  }
  return (await loc.textContent())?.trim() ?? '';
}

/** "N changes waiting to sync" in the sync indicator → N (null when it shows no waiting count). */
export function pendingCount(statusText: string): number | null {
  const m = /([\d,]+)\s+changes?\s+waiting to sync/i.exec(statusText);
  return m ? Number(m[1]!.replace(/,/g, '')) : null;
}

/**
 * Waits for the service worker to be installed and active, and for it to control this page.
 * On first load a new worker controls only pages loaded after it activated (unless it claims
 * clients), so the page is reloaded once while online when it is not yet controlled.
 */
export async function waitForServiceWorkerControl(page: Page, timeout = 60_000): Promise<void> {
  await pollPage(
    page,
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
  await pollPage(page, () => navigator.serviceWorker.controller !== null, undefined, { timeout });
}

/**
 * The usual start of an offline scenario: from the app's root, signs in, waits until the service
 * worker controls the page (so a later offline reload comes from it) and the first mirror is synced.
 */
export async function signInForOffline(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await signIn(page, email, password);
  await waitForServiceWorkerControl(page);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
}

/**
 * Polls `fn` in the page until it returns a truthy value, and returns that value.
 *
 * Playwright's page.waitForFunction runs its predicate through the page's own `eval`, which the
 * app's Content Security Policy (script-src 'self', no 'unsafe-eval') refuses. page.evaluate
 * goes through DevTools instead, so it is polled from here; a navigation that destroys the
 * context mid-poll is retried rather than failed.
 */
export async function pollPage<A, R>(
  page: Page,
  fn: (arg: A) => R | Promise<R>,
  arg: A,
  opts: { timeout?: number; interval?: number } = {},
): Promise<NonNullable<Awaited<R>>> {
  const timeout = opts.timeout ?? 30_000;
  const interval = opts.interval ?? 50;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = (await page.evaluate(fn as (arg: unknown) => R, arg as unknown)) as Awaited<R>;
      if (value) return value as NonNullable<Awaited<R>>;
    } catch (error) {
      if (!/Execution context was destroyed|because of a navigation/i.test(String(error))) throw error;
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`pollPage: not true after ${timeout} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}

/** API calls refused as a dropped connection would be, while setNetwork has the context offline. */
const API_CALLS = /\/v1\//;
const dropApiCall = (route: Route) => route.abort('internetdisconnected');

/**
 * Takes the browser context offline or back online. Chromium's offline emulation alone let a
 * request from a freshly started data worker through once under load (around an offline
 * reload), so offline also drops every API call at the context's router, which sees the
 * worker's and the page's requests alike: "nothing reached the server while offline" then
 * tests the app, not the emulation's timing. The page still learns it is offline from the
 * emulation (navigator.onLine and the offline event), as the app does in real life.
 */
export async function setNetwork(context: BrowserContext, online: boolean): Promise<void> {
  if (online) {
    await context.setOffline(false);
    await context.unroute(API_CALLS, dropApiCall);
  } else {
    await context.route(API_CALLS, dropApiCall);
    await context.setOffline(true);
  }
}

/**
 * Reloads the page while offline and waits until the reloaded document is offline itself. The
 * context's offline emulation reaches a new document late, and under load not at all: the app
 * then boots reading `navigator.onLine === true` (while its calls still fail) and rightly shows
 * "N changes waiting to sync", never "Offline". So the offline state is set again for the new
 * document (API calls stay dropped by setNetwork's route all along) and the test goes on once the
 * page reports what the app reads.
 */
export async function reloadOffline(session: BrowserSession) {
  const { page, context } = session;
  const reloaded = await page.reload();
  if (await page.evaluate(() => navigator.onLine)) {
    await context.setOffline(false);
    await context.setOffline(true);
  }
  await pollPage(page, () => !navigator.onLine, undefined);
  return reloaded;
}
