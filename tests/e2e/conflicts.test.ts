/**
 * Issue 24 item 9, "no silent overwrite", end to end on real parts: the built PWA served by the
 * real server (PGlite), two Chromium profiles (separate fresh user-data-dirs, so two devices
 * with their own device ids and mirrors) signed in as the admin and the bookkeeper.
 *
 * Both go offline on the same transaction. The admin edits the memo, the bookkeeper the GL
 * account; then both edit the memo. The admin comes back first: both of the admin's edits land
 * (the same device's edits never conflict). The bookkeeper comes back: the GL account lands (a
 * field nobody else changed), the memo meets the admin's and opens the conflict drawer (Theirs:
 * the admin, their memo; Mine: the bookkeeper's), shown as a full-screen sheet at 390 px; Keep
 * all mine sends the memo once more with the conflict's version and it lands exactly once.
 * The server's row (read through the API) holds both disjoint edits and the kept memo; the
 * PATCHes each browser sent are recorded at its context's router with the server's answers.
 */
import type { BrowserContext, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { getTransaction } from '../../schema/api/calls.ts';
import { apiSignIn } from '../support/api.ts';
import { launchBrowser, setNetwork, signIn, waitForServiceWorkerControl, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { axeFindings } from '../support/axe.ts';
import { chooseCoding, WAITING_TO_SYNC } from '../support/transactions-page.ts';

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';
const BOOKKEEPER = 'bookkeeper@demo.test';
const FIRST_MEMO = 'e2e conflict: admin memo 1';
const ADMIN_MEMO = 'e2e conflict: admin memo 2';
const KEPT_MEMO = 'e2e conflict: bookkeeper memo';

let server: TestServer;
let admin: BrowserSession;
let bookkeeper: BrowserSession;
let txnId = '';
let gl = { id: '', label: '' };

/** A PATCH of a transaction a browser sent, with what it carried and the server's answer. */
interface SentPatch {
  memo: unknown;
  gl: unknown;
  ifMatch: string | null;
  device: string | null;
  status: number;
  /** A 409's `current_version`. */
  currentVersion?: number;
}
const sent: Record<'admin' | 'bookkeeper', SentPatch[]> = { admin: [], bookkeeper: [] };

/** Records every transaction PATCH the context sends (page and data worker) and the answer. */
async function recordPatches(context: BrowserContext, into: SentPatch[]) {
  await context.route(/\/v1\/auth\/transactions\/[0-9a-f-]{36}$/, async (route: Route) => {
    const req = route.request();
    if (req.method() !== 'PATCH') return route.fallback();
    const response = await route.fetch();
    const body = (req.postDataJSON() ?? {}) as Record<string, unknown>;
    const headers = await req.allHeaders();
    const answer = response.status() === 409 ? ((await response.json()) as { error_v2?: { current_version?: number } }) : null;
    into.push({
      memo: body.memo, gl: body.gl_account_id, ifMatch: headers['if-match'] ?? null, device: headers['x-ledgerline-device'] ?? null, status: response.status(),
      ...(answer?.error_v2?.current_version !== undefined ? { currentVersion: answer.error_v2.current_version } : {}),
    });
    await route.fulfill({ response });
  });
}

beforeAll(async () => {
  server = await startTestServer({ transactions: 40, serveDist: true });
  [admin, bookkeeper] = await Promise.all([launchBrowser({ baseURL: server.url }), launchBrowser({ baseURL: server.url })]);
  await recordPatches(admin.context, sent.admin);
  await recordPatches(bookkeeper.context, sent.bookkeeper);
  const [txn] = await server.db.query<{ id: string; gl_account_id: string | null }>(
    `SELECT id::text AS id, gl_account_id::text AS gl_account_id FROM transactions WHERE business_id = $1 ORDER BY occurred_at DESC, id LIMIT 1`,
    [server.businessId],
  );
  txnId = txn!.id;
  const [account] = await server.db.query<{ id: string; label: string }>(
    `SELECT id::text AS id, code || ' ' || name AS label FROM gl_accounts WHERE business_id = $1 AND id IS DISTINCT FROM $2::uuid ORDER BY code LIMIT 1`,
    [server.businessId, txn!.gl_account_id],
  );
  gl = account!;
}, 180_000);

afterAll(async () => {
  await admin?.close();
  await bookkeeper?.close();
  await server?.close();
});

function showBrowserLogsOnFailure() {
  onTestFailed(() => {
    for (const [who, s] of [['admin', admin], ['bookkeeper', bookkeeper]] as const) {
      const logs = s?.logs ?? [];
      if (logs.length) console.error(`${who} browser logs:\n${logs.slice(-40).join('\n')}`);
    }
    console.error(`PATCHes sent: ${JSON.stringify(sent)}`);
  });
}

const detailDrawer = (s: BrowserSession) => s.page.getByRole('dialog').filter({ has: s.page.getByRole('button', { name: 'Close details' }) });

/** Signed in, mirrored, under the service worker, with the transaction's drawer open. */
async function ready(s: BrowserSession, email: string) {
  await s.page.goto('/');
  await signIn(s.page, email, PASSWORD);
  await waitForServiceWorkerControl(s.page);
  await waitForSyncStatus(s.page, 'All changes synced', 120_000);
  await s.page.goto(`/transactions?open=${txnId}`);
  await detailDrawer(s).getByLabel('Memo').waitFor();
}

async function saveMemo(s: BrowserSession, memo: string) {
  const drawer = detailDrawer(s);
  await drawer.getByLabel('Memo').fill(memo);
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => drawer.getByText(WAITING_TO_SYNC).count(), { timeout: 15_000 }).toBeGreaterThan(0);
}

describe('two devices edit the same transaction offline', () => {
  it('the disjoint edits both land; the same field opens the conflict drawer, where Keep mine lands exactly once', async () => {
    showBrowserLogsOnFailure();
    await Promise.all([ready(admin, ADMIN), ready(bookkeeper, BOOKKEEPER)]);
    const base = (await server.db.query<{ change_seq: string }>(`SELECT change_seq::text AS change_seq FROM transactions WHERE id = $1`, [txnId]))[0]!.change_seq;

    await Promise.all([setNetwork(admin.context, false), setNetwork(bookkeeper.context, false)]);
    await Promise.all([waitForSyncStatus(admin.page, 'Offline'), waitForSyncStatus(bookkeeper.page, 'Offline')]);

    // One the memo, one the GL account; then both the memo.
    await saveMemo(admin, FIRST_MEMO);
    const bookkeeperDrawer = detailDrawer(bookkeeper);
    await chooseCoding(bookkeeperDrawer, 'GL account', gl.label);
    await bookkeeperDrawer.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => bookkeeperDrawer.getByText(WAITING_TO_SYNC).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await saveMemo(admin, ADMIN_MEMO);
    await saveMemo(bookkeeper, KEPT_MEMO);
    expect(sent.admin.length + sent.bookkeeper.length).toBe(0);

    // The admin first: the same device's two memo edits, both made on the same version, land.
    await setNetwork(admin.context, true);
    await waitForSyncStatus(admin.page, 'All changes synced', 60_000);
    expect(sent.admin.map((p) => [p.memo, p.ifMatch, p.status])).toEqual([[FIRST_MEMO, `"${base}"`, 200], [ADMIN_MEMO, `"${base}"`, 200]]);
    expect(new Set(sent.admin.map((p) => p.device)).size).toBe(1);
    expect(sent.admin[0]!.device).toMatch(/^[0-9a-f-]{36}$/);

    // The bookkeeper: the GL account lands, the memo meets the admin's.
    await setNetwork(bookkeeper.context, true);
    const review = bookkeeperDrawer.getByRole('button', { name: 'Review changes' }).first();
    await review.waitFor({ timeout: 60_000 });
    expect(sent.bookkeeper.map((p) => [p.gl ?? null, p.memo ?? null, p.ifMatch, p.status])).toEqual([
      [gl.id, null, `"${base}"`, 200],
      [null, KEPT_MEMO, `"${base}"`, 409],
    ]);
    expect(sent.bookkeeper[0]!.device).not.toBe(sent.admin[0]!.device);
    // Rolled back: the bookkeeper sees the server's memo (the admin's) until they choose.
    await expect.poll(() => bookkeeperDrawer.getByLabel('Memo').inputValue(), { timeout: 30_000 }).toBe(ADMIN_MEMO);

    // The conflict drawer, on a phone-sized screen: a full-screen sheet naming who changed what.
    await bookkeeper.page.setViewportSize({ width: 390, height: 844 });
    await review.click();
    const sheet = bookkeeper.page.getByRole('dialog', { name: 'Review changes' });
    await sheet.waitFor();
    const adminName = (await userByEmail(server.db, server.businessId, ADMIN)).name;
    await expect.poll(() => sheet.getByRole('group', { name: 'Memo' }).textContent()).toContain(ADMIN_MEMO);
    const memoGroup = sheet.getByRole('group', { name: 'Memo' });
    expect(await memoGroup.textContent()).toContain(`${adminName} changed the memo`);
    expect(await memoGroup.getByRole('radio', { name: /Keep theirs/ }).count()).toBe(1);
    expect(await memoGroup.getByRole('radio', { name: new RegExp(`Keep mine.*${KEPT_MEMO}`) }).count()).toBe(1);
    const box = await sheet.boundingBox();
    expect(box?.width).toBe(390);
    // Keyboard: focus starts in the sheet and Tab never leaves it (a modal layer over the row's drawer).
    for (let i = 0; i < 12; i++) {
      expect(await sheet.locator(':focus').count()).toBe(1);
      await bookkeeper.page.keyboard.press('Tab');
    }
    // No serious or critical accessibility finding, light and dark, desktop and phone.
    expect(await axeFindings(bookkeeper.page)).toEqual([]);

    await sheet.getByRole('button', { name: 'Keep all mine' }).click();
    await sheet.waitFor({ state: 'detached' });
    await waitForSyncStatus(bookkeeper.page, 'All changes synced', 60_000);

    // Exactly one PATCH carrying the kept memo was accepted, after the conflict, on the conflict's version.
    const keptSends = sent.bookkeeper.filter((p) => p.memo === KEPT_MEMO);
    expect(keptSends.map((p) => p.status)).toEqual([409, 200]);
    expect(keptSends[0]!.currentVersion).toEqual(expect.any(Number));
    expect(keptSends[1]!.ifMatch).toBe(`"${keptSends[0]!.currentVersion}"`);
    expect(sent.bookkeeper).toHaveLength(3);
    expect(sent.bookkeeper[2]).toMatchObject({ memo: KEPT_MEMO, gl: undefined, status: 200 });

    // The server's row: both disjoint edits and the kept memo.
    const api = await apiSignIn(server.url, ADMIN, PASSWORD);
    const row = await api.call(getTransaction, { params: { transaction_canonical_uuid: txnId } });
    expect({ memo: row.memo, gl: row.gl_account_id }).toEqual({ memo: KEPT_MEMO, gl: gl.id });

    // And the admin's device follows: it shows the kept memo and the bookkeeper's GL account.
    await expect.poll(() => detailDrawer(admin).getByLabel('Memo').inputValue(), { timeout: 30_000 }).toBe(KEPT_MEMO);
    expect(admin.cspViolations.concat(bookkeeper.cspViolations)).toEqual([]);
  }, 300_000);
});
