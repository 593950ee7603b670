/**
 * Issue 2, item 7: the offline coding scenario, end to end, on real parts only: the built PWA
 * (dist/) served by the real server (server/testing.ts, PGlite in a temporary directory, 3,000
 * demo transactions) in Debian's headless Chromium with a fresh profile.
 *
 * admin signs in → first mirror → search → selects 100 rows (click + shift-click) → bulk-codes
 * them → the server holds exactly those 100 coded; offline → memo edits in the detail drawer and
 * a bulk code → offline reload (service worker + mirror) keeps the pending edits → online → the
 * outbox drains → the server applied each command exactly once, with no Content Security Policy
 * violation anywhere (page, data worker, service worker); an employee sees only their own.
 * Issue 8: an edit shown as pending survives a reload made the moment the mark appears, under a
 * network that loses the command's response, and the server holds it exactly once.
 *
 * Server-side checks read the database through the test server's `db` handle.
 */
import type { Dialog } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { apiSearch, apiSignIn } from '../support/api.ts';
import {
  launchBrowser, reloadOffline, setNetwork, pendingCount, signIn, WAITING_TEXT, waitForServiceWorkerControl, waitForSyncStatus, type BrowserSession,
} from '../support/browser.ts';
import { COLUMNS, allRows, mirrorProgressBar, rowAt, searchBox, selectionBar, waitForTotal, WAITING_TO_SYNC } from '../support/transactions-page.ts';
import {
  businessSeq, countTransactions, glAccountByCode, idempotencyKeys, keyScope, newestTransactions, rowsChangedAfter, userByEmail,
} from '../support/db-checks.ts';
import { bulkCodeSelection, waitForFirstMirror } from '../support/transactions-steps.ts';

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
const TRANSACTIONS = 3_000;
const SEARCH = 'uber';
const SELECT_COUNT = 100;
const MEMO_PREFIX = 'e2e offline memo';
const OFFLINE_BULK_ROWS = { first: 10, last: 14 };
const RELOAD_MEMO = 'e2e reload memo';
const RELOAD_ROW = 5;
/** The command endpoints (a memo edit, a bulk coding). */
const commandUrl = (url: URL) => url.pathname.startsWith('/v1/auth/transactions/') || url.pathname.startsWith('/v1/auth/accounting/coding/');

let server: TestServer;
let admin: BrowserSession;

/** Facts one step hands to the next (the scenario is one story told in order). */
const story = {
  memoIds: [] as string[],
  offlineGl: { id: '', label: '' },
  keysBeforeOffline: 0,
  seqBeforeOnline: 0,
};

beforeAll(async () => {
  server = await startTestServer({ transactions: TRANSACTIONS, serveDist: true });
  admin = await launchBrowser({ baseURL: server.url });
});

afterAll(async () => {
  await admin?.close();
  await server?.close();
});

/** Prints what the browser said when a step fails (console errors, failed requests). */
function showBrowserLogsOnFailure(session: () => BrowserSession | undefined) {
  onTestFailed(() => {
    const logs = session()?.logs ?? [];
    if (logs.length) console.error(`browser logs:\n${logs.slice(-60).join('\n')}`);
  });
}

describe('offline coding, end to end', () => {
  it('admin signs in and the first mirror completes, with the app shell under the service worker', async () => {
    showBrowserLogsOnFailure(() => admin);
    const { page, context } = admin;
    // Issue 8: the first mirror fills newest first. Hold its walk after the first page (2,000 of
    // 3,000+ rows: the reference data, then the newest transactions), so the table is seen while
    // the mirror still runs.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const laterWalkPages = (url: URL) => url.pathname === '/v1/auth/sync/changes' && url.searchParams.has('before');
    await context.route(laterWalkPages, async (route) => {
      await held;
      // The worker may have dropped the request meanwhile (its fetch aborted): nothing to continue.
      await route.continue().catch(() => undefined);
    });
    try {
      await page.goto('/');
      await signIn(page, ADMIN, PASSWORD);
      await mirrorProgressBar(page).waitFor({ timeout: 60_000 });
      await expect.poll(() => page.getByTestId('partial-results').textContent(), { timeout: 60_000 }).toMatch(/older ones are still downloading/);
      // The first row of the "Date ↓" table is already the newest transaction on the server, with
      // its cardholder's name (reference rows come first in the walk).
      const [newest, next] = await newestTransactions(server.db, server.businessId, 2);
      expect(newest!.occurred_at).not.toBe(next!.occurred_at);
      await expect.poll(async () => {
        const cells = await rowAt(page, 0).getByRole('gridcell').allTextContents();
        return { merchant: cells[COLUMNS.merchant]?.trim(), cardholder: cells[COLUMNS.cardholder]?.trim() };
      }, { timeout: 30_000 }).toEqual({ merchant: newest!.merchant, cardholder: newest!.cardholder });
      expect(await mirrorProgressBar(page).count()).toBe(1);
    } finally {
      release();
    }
    await waitForFirstMirror(admin, await countTransactions(server.db, server.businessId));
    await context.unroute(laterWalkPages);
    // The offline part needs the service worker in control of this page; the first load only
    // installs it, so this may reload once (online), after which the mirror is still there.
    await waitForServiceWorkerControl(page);
    await waitForFirstMirror(admin, await countTransactions(server.db, server.businessId));
  });

  it('searches, selects 100 transactions, bulk-codes them, and the server holds exactly those coded', async () => {
    showBrowserLogsOnFailure(() => admin);
    const { page } = admin;
    const target = await glAccountByCode(server.db, server.businessId, '6120');
    // The same search online, for "those 100" below (its own Idempotency-Key is stored first).
    const api = await apiSignIn(server.url, ADMIN, PASSWORD);
    const online = await apiSearch(api, { filters: { q: SEARCH }, pageSize: SELECT_COUNT, includeCount: true });
    expect(online.total_count).toBeGreaterThanOrEqual(SELECT_COUNT);
    const seqBefore = await businessSeq(server.db, server.businessId);
    const keysBefore = (await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN))).length;

    await searchBox(page).fill(SEARCH);
    await waitForTotal(page, online.total_count ?? -1);
    await expect.poll(() => rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.merchant).textContent()).toMatch(/uber/i);

    // Click the first row's checkbox, walk down with the keyboard, shift-click the 100th.
    await rowAt(page, 0).getByRole('checkbox').click();
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown');
    await rowAt(page, SELECT_COUNT - 1).getByRole('checkbox').click({ modifiers: ['Shift'] });
    await expect.poll(() => selectionBar(page).textContent()).toContain(`${SELECT_COUNT} selected`);

    await bulkCodeSelection(admin, SELECT_COUNT, target.label);
    await waitForSyncStatus(page, 'All changes synced');

    const changed = await rowsChangedAfter(server.db, server.businessId, seqBefore);
    expect(changed).toHaveLength(SELECT_COUNT);
    expect(changed.every((r) => r.gl_account_id === target.id)).toBe(true);
    // "Those 100": the first 100 rows of the same search, newest first, as the server answers it.
    expect(new Set(changed.map((r) => r.id))).toEqual(new Set(online.data.map((t) => t.id)));
    expect(await businessSeq(server.db, server.businessId)).toBe(seqBefore + SELECT_COUNT);
    const keys = await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN));
    expect(keys.length - keysBefore).toBe(1);
    // The grid shows the confirmed coding on the first and the hundredth row.
    await expect.poll(() => rowAt(page, SELECT_COUNT - 1).getByRole('gridcell').nth(COLUMNS.gl).textContent()).toBe(target.label);
    await page.keyboard.press('Home');
    await expect.poll(() => rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.gl).textContent()).toBe(target.label);
  });

  it('keeps coding offline, and an offline reload starts the app with the pending edits intact', async () => {
    showBrowserLogsOnFailure(() => admin);
    const { page, context } = admin;
    story.offlineGl = await glAccountByCode(server.db, server.businessId, '6140');
    story.keysBeforeOffline = (await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN))).length;
    await searchBox(page).fill('');
    await waitForTotal(page, await countTransactions(server.db, server.businessId));

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');

    // Three memo edits through the detail drawer (its id is in the URL: ?open=<uuid>).
    for (let i = 0; i < 3; i++) {
      await rowAt(page, i).getByRole('gridcell').nth(COLUMNS.merchant).click();
      const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
      await drawer.getByLabel('Memo').fill(`${MEMO_PREFIX} ${i + 1}`);
      await drawer.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => drawer.getByText(WAITING_TO_SYNC).count()).toBeGreaterThan(0);
      const id = new URL(page.url()).searchParams.get('open');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      story.memoIds.push(id!);
      await drawer.getByRole('button', { name: 'Close details' }).click();
      await drawer.waitFor({ state: 'detached' });
    }

    // One bulk code of five rows, offline.
    const count = OFFLINE_BULK_ROWS.last - OFFLINE_BULK_ROWS.first + 1;
    await rowAt(page, OFFLINE_BULK_ROWS.first).getByRole('checkbox').click();
    await rowAt(page, OFFLINE_BULK_ROWS.last).getByRole('checkbox').click({ modifiers: ['Shift'] });
    await expect.poll(() => selectionBar(page).textContent()).toContain(`${count} selected`);
    await bulkCodeSelection(admin, count, story.offlineGl.label);

    await expectPendingEdits(admin, count);
    // Nothing reached the server while offline.
    expect(await memosOnServer()).toEqual([]);

    // Reload while offline: the service worker serves the app, the worker reopens the mirror
    // and the outbox; the session survives; the edits are still shown as pending.
    const urlBefore = new URL(page.url());
    const reloaded = await reloadOffline(admin);
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    // The URL carries the view state (search, page): the reloaded page restores it.
    await expect.poll(() => searchBox(page).inputValue(), { timeout: 30_000 }).toBe(urlBefore.searchParams.get('q') ?? '');
    await expectPendingEdits(admin, count);
    expect(await memosOnServer()).toEqual([]);
  });

  it('back online, the outbox drains and the server applied each edit exactly once', async () => {
    showBrowserLogsOnFailure(() => admin);
    const { page, context } = admin;
    const bulkCount = OFFLINE_BULK_ROWS.last - OFFLINE_BULK_ROWS.first + 1;
    const commands = story.memoIds.length + 1;
    story.seqBeforeOnline = await businessSeq(server.db, server.businessId);

    // Hold the first command at the network edge until the indicator has shown the queue, so
    // "N pending" is observed deterministically; then let everything through to the real server.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await context.route(commandUrl, async (route) => {
      await held;
      await route.continue();
    });
    try {
      await setNetwork(context, true);
      const shown = await waitForSyncStatus(page, WAITING_TEXT, 30_000);
      // The indicator counts changed rows, not commands (issue 25: a bulk edit is as many changes as its rows).
      expect(pendingCount(shown)).toBe(story.memoIds.length + bulkCount);
    } finally {
      release();
    }
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await context.unroute(commandUrl);

    // Memos arrived, on exactly the edited rows.
    expect(await memosOnServer()).toEqual(
      story.memoIds.map((id, i) => ({ id, memo: `${MEMO_PREFIX} ${i + 1}` })).sort((a, b) => a.memo.localeCompare(b.memo)),
    );
    // Each command applied once: every applied command takes one change_seq per row it writes,
    // so any duplicate application would push the counter past 3 memos + 5 bulk rows.
    const changed = await rowsChangedAfter(server.db, server.businessId, story.seqBeforeOnline);
    expect(await businessSeq(server.db, server.businessId)).toBe(story.seqBeforeOnline + story.memoIds.length + bulkCount);
    const bulkRows = changed.filter((r) => !story.memoIds.includes(r.id));
    expect(bulkRows).toHaveLength(bulkCount);
    expect(bulkRows.every((r) => r.gl_account_id === story.offlineGl.id)).toBe(true);
    // One stored Idempotency-Key per command, each answered once with success.
    const keys = (await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN))).slice(story.keysBeforeOffline);
    expect(keys).toHaveLength(commands);
    expect(keys.every((k) => k.state === 'done' && k.status === 200)).toBe(true);
    // And the UI dropped the pending marks.
    await searchBox(page).fill(MEMO_PREFIX);
    await waitForTotal(page, story.memoIds.length);
    await expect
      .poll(async () => (await allRows(page, story.memoIds.length)).filter((r) => r.cells[COLUMNS.status]?.includes(WAITING_TO_SYNC)).length)
      .toBe(0);
  });

  it('an edit shown as pending survives an immediate reload on a faulty network, and the server holds it once', async () => {
    showBrowserLogsOnFailure(() => admin);
    const { page, context } = admin;
    await searchBox(page).fill('');
    await waitForTotal(page, await countTransactions(server.db, server.businessId));
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const seqBefore = await businessSeq(server.db, server.businessId);
    const keysBefore = (await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN))).length;

    // A faulty network: the first command reaches the server, which applies it, but its answer
    // is lost on the way back (the client must re-send with the same key: the server replays).
    let requests = 0;
    await context.route(commandUrl, async (route) => {
      if (++requests === 1) {
        await route.fetch().catch(() => undefined);
        await route.abort('failed');
      } else await route.continue();
    });
    // Should the reload find a command write still in flight, its beforeunload guard asks: leave.
    const leave = (d: Dialog) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss());
    page.on('dialog', leave);
    try {
      await rowAt(page, RELOAD_ROW).getByRole('gridcell').nth(COLUMNS.merchant).click();
      const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
      await drawer.getByLabel('Memo').fill(RELOAD_MEMO);
      await drawer.getByRole('button', { name: 'Save' }).click();
      // Shown as pending only once the outbox entry is durable: reload the moment it shows.
      await drawer.getByText(WAITING_TO_SYNC).first().waitFor({ state: 'visible', timeout: 30_000 });
      const id = new URL(page.url()).searchParams.get('open');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await page.reload();

      // After the reload the edit is still there: pending (or already sent), never gone.
      const reopened = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
      await expect.poll(() => reopened.getByLabel('Memo').inputValue(), { timeout: 60_000 }).toBe(RELOAD_MEMO);
      await waitForSyncStatus(page, 'All changes synced', 60_000);
      await expect.poll(() => reopened.getByText(WAITING_TO_SYNC).count()).toBe(0);

      // The server holds it exactly once: one row change, one stored key answered with success.
      const onServer = await server.db.query<{ memo: string }>(
        `SELECT memo FROM transactions WHERE business_id = $1 AND id = $2`,
        [server.businessId, id],
      );
      expect(onServer.map((r) => r.memo)).toEqual([RELOAD_MEMO]);
      expect(await businessSeq(server.db, server.businessId)).toBe(seqBefore + 1);
      const keys = (await idempotencyKeys(server.db, await keyScope(server.db, server.businessId, ADMIN))).slice(keysBefore);
      expect(keys).toHaveLength(1);
      expect(keys.every((k) => k.state === 'done' && k.status === 200)).toBe(true);
      expect(requests).toBeGreaterThanOrEqual(1);
      await reopened.getByRole('button', { name: 'Close details' }).click();
    } finally {
      page.off('dialog', leave);
      await context.unroute(commandUrl);
    }
  });

  it('ran all of the above under the strict Content Security Policy without a single violation', async () => {
    // Sign-in, the data worker, the service worker install, searching, coding, offline reload
    // and the outbox drain all happened under the server's policy: it must be there, and unbroken.
    const shell = await admin.page.request.get('/');
    expect(shell.headers()['content-security-policy']).toContain("script-src 'self'");
    // WebAssembly (the on-device OCR engine) is the one exception, and it is not eval.
    const policy = shell.headers()['content-security-policy'] ?? '';
    expect(policy.replace("'wasm-unsafe-eval'", '')).not.toContain('unsafe');
    expect(admin.context.serviceWorkers().length).toBeGreaterThan(0);
    expect(admin.page.workers().length).toBeGreaterThan(0);
    expect(admin.cspViolations).toEqual([]);
  });

  it('an employee sees only their own transactions', async () => {
    const employee = await launchBrowser({ baseURL: server.url });
    showBrowserLogsOnFailure(() => employee);
    try {
      const { page } = employee;
      const me = await userByEmail(server.db, server.businessId, EMPLOYEE);
      const own = await countTransactions(server.db, server.businessId, me.id);
      expect(own).toBeGreaterThan(0);
      await page.goto('/');
      await signIn(page, EMPLOYEE, PASSWORD);
      await waitForFirstMirror(employee, own);
      const rows = await allRows(page, own);
      expect(rows).toHaveLength(own);
      expect(new Set(rows.map((r) => r.cells[COLUMNS.cardholder]))).toEqual(new Set([me.name]));
    } finally {
      await employee.close();
    }
  });
});

/** The memos the offline edits set, as the server has them (sorted by memo). */
async function memosOnServer() {
  return server.db.query<{ id: string; memo: string }>(
    `SELECT id::text AS id, memo FROM transactions WHERE business_id = $1 AND memo LIKE $2 ORDER BY memo`,
    [server.businessId, `${MEMO_PREFIX}%`],
  );
}

/** The offline edits are on screen, marked "Waiting to sync": memo rows via search, bulk rows by position. */
async function expectPendingEdits(session: BrowserSession, bulkCount: number) {
  const { page } = session;
  await searchBox(page).fill(MEMO_PREFIX);
  await waitForTotal(page, story.memoIds.length);
  const memoRows = await allRows(page, story.memoIds.length);
  expect(memoRows.map((r) => r.cells[COLUMNS.memo]).sort()).toEqual(story.memoIds.map((_, i) => `${MEMO_PREFIX} ${i + 1}`));
  expect(memoRows.every((r) => r.cells[COLUMNS.status]?.includes(WAITING_TO_SYNC))).toBe(true);
  await searchBox(page).fill('');
  await waitForTotal(page, await countTransactions(server.db, server.businessId));
  for (let i = OFFLINE_BULK_ROWS.first; i < OFFLINE_BULK_ROWS.first + bulkCount; i++) {
    const cells = rowAt(page, i).getByRole('gridcell');
    await expect.poll(() => cells.nth(COLUMNS.gl).textContent()).toBe(story.offlineGl.label);
    expect(await cells.nth(COLUMNS.status).textContent()).toContain(WAITING_TO_SYNC);
  }
}
