/**
 * The usual e2e file's world: the real server (PGlite, serving the built PWA from dist/) and one
 * headless Chromium on it, started before the file's tests and closed after them. The two are
 * live bindings: a file reads `server` and `browser` straight from this module once
 * `useServerAndBrowser` has run its hook. The e2e files share one module graph (vitest.config.ts:
 * `isolate: false`) but run one after another, so each file's beforeAll sets them for that file
 * (after the previous file's afterAll closed its own).
 */
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from '../../server/testing.ts';
import { launchBrowser, type BrowserSession, type LaunchOptions } from './browser.ts';

export let server: TestServer;
export let browser: BrowserSession;

/**
 * `launch`: the browser's size and input (e.g. a phone's 390 px viewport with touch); desktop by
 * default. `prepare`: what the file's data needs beyond the seed, run once the server is up and
 * before the browser starts.
 */
export function useServerAndBrowser(
  opts: TestServerOptions,
  timeoutMs = 120_000,
  launch: Omit<LaunchOptions, 'baseURL'> = {},
  prepare?: (server: TestServer) => Promise<void>,
): void {
  beforeAll(async () => {
    server = await startTestServer({ serveDist: true, ...opts });
    await prepare?.(server);
    browser = await launchBrowser({ ...launch, baseURL: server.url });
  }, timeoutMs);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/**
 * The e2e file whose people each get a browser of their own: the server before the file's tests,
 * and `openSession(label)` to launch one more Chromium on it when a test needs it. Every session
 * is closed after the file; a session's last console lines are printed when the test that opened
 * it fails.
 */
export function useServerAndSessions(opts: TestServerOptions, timeoutMs = 120_000): (label: string) => Promise<BrowserSession> {
  const sessions: BrowserSession[] = [];
  beforeAll(async () => {
    server = await startTestServer({ serveDist: true, ...opts });
  }, timeoutMs);
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await server?.close();
  });
  return async (label) => {
    const session = await launchBrowser({ baseURL: server.url });
    sessions.push(session);
    onTestFailed(() => {
      if (session.logs.length) console.error(`browser logs (${label}):\n${session.logs.slice(-60).join('\n')}`);
    });
    return session;
  };
}

/** When the running test fails, print the last browser console lines of each session named. */
export function printBrowserLogsOnFailure(sessions: Record<string, BrowserSession | undefined>): void {
  onTestFailed(() => {
    for (const [name, s] of Object.entries(sessions)) {
      if (s?.logs.length) console.error(`${name} logs:\n${s.logs.slice(-60).join('\n')}`);
    }
  });
}
