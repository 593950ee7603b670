/**
 * Issue 9 §4, end to end: the reimbursements screens offline. On real parts only: the built PWA
 * (dist/) served by the real server (PGlite) in Debian's headless Chromium.
 *
 * The demo employee signs in (the service worker takes the page), opens Reimbursements (the
 * seed's claims of every status), waits until the OCR engine is cached for offline use, goes
 * offline and creates three claims through the New menu: out of pocket with a receipt photo (read
 * on the device: its amount, date and merchant fill the form), mileage (the live
 * amount reads "124 mi × $0.725 = $89.90") and per diem (3 days at the default rate: $170.00).
 * All three show at once, each "Waiting to sync"; an offline reload (from the service worker and
 * the mirror) still shows them pending. Back online the outbox drains, the marks go, and the
 * server holds each claim exactly once with the amounts in minor units.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openSection, pollPage, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { getReceiptMetadata } from '../../schema/api/calls-receipts.ts';
import { ApiError, apiSignIn } from '../support/api.ts';
import { userByEmail } from '../support/db-checks.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const PASSWORD = 'demo-password-1';
const MERCHANT = 'E2E Blue Bottle Coffee';
/** A generated receipt (tests/fixtures/receipts/truth.json: Uber, $23.18, 2026-11-09). */
const RECEIPT_NAME = 'r08-ride-usd.png';
const RECEIPT_FILE = fileURLToPath(new URL(`../fixtures/receipts/${RECEIPT_NAME}`, import.meta.url));

useServerAndBrowser({ transactions: 50 });

const grid = (page: Page): Locator => page.getByRole('grid', { name: 'Reimbursements' });
/** The data rows (the header row has column headers, not cells). */
const claimRows = (page: Page): Locator => grid(page).getByRole('row').filter({ has: page.getByRole('gridcell') });

/** A saved new claim opens in its drawer (issue 25: never sorted out of sight); close it, as a person would before the next. */
async function closeNewClaim(page: Page): Promise<void> {
  const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
  await drawer.waitFor({ state: 'visible', timeout: 30_000 });
  await drawer.getByRole('button', { name: 'Close details' }).click();
  await drawer.waitFor({ state: 'detached' });
}

/** Opens the "New" menu and the form of one claim type; returns the form's dialog. */
async function openForm(page: Page, item: string, title: string): Promise<Locator> {
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

async function rowTexts(page: Page): Promise<string[]> {
  return (await claimRows(page).allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
}

describe('reimbursements offline, end to end', () => {
  it('creates three claims offline, keeps them pending through an offline reload, and the server gets each once', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);

    await openSection(page, 'Reimbursements');
    await page.getByRole('heading', { name: 'Reimbursements', level: 1 }).waitFor({ state: 'visible' });
    // The seed gives the demo employee a claim in every status: what follows adds to those.
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const seeded = await server.db.query<{ id: string }>(
      'SELECT id::text AS id FROM reimbursements WHERE business_id = $1 AND user_id = $2 AND NOT deleted',
      [server.businessId, employee.id],
    );
    expect(seeded.length).toBeGreaterThan(0);
    await expect.poll(() => claimRows(page).count(), { timeout: 30_000 }).toBe(seeded.length);
    const before = seeded.length;

    // Once the first mirror is done the app caches the OCR engine and model for offline use.
    await pollPage(page, async () => (await (await caches.open('ledgerline-ocr')).keys()).length >= 4, undefined, { timeout: 60_000 });

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');

    // Out of pocket, submitted.
    const pocket = await openForm(page, 'Out-of-pocket', 'New out-of-pocket claim');
    const receipts = pocket.getByRole('group', { name: 'Receipts' });
    await receipts.locator('input[type="file"]').setInputFiles(RECEIPT_FILE);
    await receipts.getByText('Filled from the receipt').waitFor({ state: 'visible', timeout: 60_000 });
    await receipts.getByRole('img', { name: RECEIPT_NAME }).waitFor({ state: 'visible' });
    expect(await pocket.getByLabel('Amount', { exact: true }).inputValue()).toBe('23.18');
    expect(await pocket.getByLabel('Date', { exact: true }).inputValue()).toBe('2026-11-09');
    expect(await pocket.getByLabel('Merchant').inputValue()).toMatch(/uber/i);
    await pocket.getByLabel('Merchant').fill(MERCHANT);
    await pocket.getByRole('button', { name: 'Submit' }).click();
    await pocket.waitFor({ state: 'detached' });
    await closeNewClaim(page);

    // Mileage, submitted: the amount is shown live from the IRS rate of the trip's year.
    const mileage = await openForm(page, 'Mileage', 'New mileage claim');
    await mileage.getByLabel('Trip date').fill('2026-03-02');
    await mileage.getByLabel('Distance', { exact: true }).fill('124');
    await mileage.getByLabel('From', { exact: true }).fill('Office');
    await mileage.getByLabel('To', { exact: true }).fill('Client site');
    await expect.poll(() => mileage.getByTestId('claim-live-amount').textContent()).toContain('124 mi × $0.725 = $89.90');
    await mileage.getByRole('button', { name: 'Submit' }).click();
    await mileage.waitFor({ state: 'detached' });
    await closeNewClaim(page);

    // Per diem, kept as a draft: 3 days at the default rate, 75 % on the first and last day.
    const perDiem = await openForm(page, 'Per diem', 'New per-diem claim');
    // The demo business's locations are offered (from the mirror, offline); Chicago is not one: Other.
    await perDiem.getByRole('combobox', { name: 'Location' }).click();
    await perDiem.getByRole('option', { name: 'Other (default rate)' }).click();
    await perDiem.getByLabel('Other location').fill('Chicago');
    await perDiem.getByLabel('Start date').fill('2026-03-02');
    await perDiem.getByLabel('End date').fill('2026-03-04');
    const live = perDiem.getByTestId('claim-live-amount');
    await expect.poll(() => live.textContent()).toContain('3 days');
    expect(await live.textContent()).toContain('= $170.00');
    await perDiem.getByRole('button', { name: 'Save draft' }).click();
    await perDiem.waitFor({ state: 'detached' });
    await closeNewClaim(page);

    // All three at once, each with the pending-sync mark (and its own status word beside it).
    await expect.poll(() => claimRows(page).count(), { timeout: 30_000 }).toBe(before + 3);
    const pending = async () => (await rowTexts(page)).filter((t) => t.includes(WAITING_TO_SYNC));
    let texts = await pending();
    expect(texts).toHaveLength(3);
    expect(texts.some((t) => t.includes(MERCHANT) && t.includes('$23.18') && t.includes('Submitted'))).toBe(true);
    expect(texts.some((t) => t.includes('Office → Client site') && t.includes('$89.90'))).toBe(true);
    expect(texts.some((t) => t.includes('Chicago') && t.includes('$170.00') && t.includes('Draft'))).toBe(true);

    // An offline reload: the app from the service worker, the claims from the mirror and outbox.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    await expect.poll(() => claimRows(page).count(), { timeout: 30_000 }).toBe(before + 3);
    texts = await pending();
    expect(texts).toHaveLength(3);
    // The receipt is shown from the device, waiting to upload.
    await claimRows(page).filter({ hasText: MERCHANT }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: MERCHANT });
    await drawer.getByRole('img', { name: RECEIPT_NAME }).waitFor({ state: 'visible', timeout: 30_000 });
    expect(await drawer.getByText('Waiting to upload').count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    // Online: the outbox drains and the marks go.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await pending()).length, { timeout: 30_000 }).toBe(0);
    expect(await claimRows(page).count()).toBe(before + 3);

    // The server holds each new claim exactly once, amounts in minor units.
    const stored = await server.db.query<{ type: string; status: string; amount: string; merchant: string | null; distance_miles: string | null }>(
      `SELECT type, status, amount::text AS amount, merchant, distance_miles::text AS distance_miles
         FROM reimbursements WHERE business_id = $1 AND user_id = $2 AND NOT deleted AND NOT (id::text = ANY($3)) ORDER BY type`,
      [server.businessId, employee.id, seeded.map((r) => r.id)],
    );
    expect(stored.map((r) => ({ ...r, amount: Number(r.amount), distance_miles: r.distance_miles === null ? null : Number(r.distance_miles) }))).toEqual([
      { type: 'MILEAGE', status: 'SUBMITTED', amount: 8990, merchant: null, distance_miles: 124 },
      { type: 'OUT_OF_POCKET', status: 'SUBMITTED', amount: 2318, merchant: MERCHANT, distance_miles: null },
      { type: 'PER_DIEM', status: 'DRAFT', amount: 17000, merchant: null, distance_miles: null },
    ]);

    // The receipt reached the server once, with its bytes, and the claim names it.
    const sha = createHash('sha256').update(readFileSync(RECEIPT_FILE)).digest('hex');
    const files = await server.db.query<{ id: string }>('SELECT id::text AS id FROM receipts WHERE business_id = $1 AND sha256 = $2', [server.businessId, sha]);
    expect(files).toHaveLength(1);
    const claimed = await server.db.query<{ receipt_ids: string[] }>(
      'SELECT receipt_ids::text[] AS receipt_ids FROM reimbursements WHERE business_id = $1 AND merchant = $2',
      [server.businessId, MERCHANT],
    );
    expect(claimed).toEqual([{ receipt_ids: [files[0]!.id] }]);
  }, 240_000);

  it('a cancelled claim form leaves no receipt it uploaded on the server (issue 25)', async () => {
    const { page } = browser;
    const file = fileURLToPath(new URL('../fixtures/receipts/r05-hotel-usd.png', import.meta.url));
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    const api = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const live = async () =>
      (await server.db.query<{ id: string }>('SELECT id::text AS id FROM receipts WHERE business_id = $1 AND sha256 = $2 AND NOT deleted', [server.businessId, sha])).map((r) => r.id);

    // Online: the receipt uploads while the form is open.
    const pocket = await openForm(page, 'Out-of-pocket', 'New out-of-pocket claim');
    const receipts = pocket.getByRole('group', { name: 'Receipts' });
    await receipts.locator('input[type="file"]').setInputFiles(file);
    await receipts.getByText('Uploaded', { exact: true }).waitFor({ state: 'visible', timeout: 60_000 });
    await expect.poll(live, { timeout: 30_000 }).toHaveLength(1);
    const [id] = await live();
    expect((await api.call(getReceiptMetadata, { params: { receipt_uuid: id! } })).sha256).toBe(sha);

    await pocket.getByRole('button', { name: 'Cancel' }).click();
    await pocket.waitFor({ state: 'detached' });
    // The server answers 404 for it: discarded, not left behind unattached.
    const status = async () => api.call(getReceiptMetadata, { params: { receipt_uuid: id! } }).then(() => 200, (e: unknown) => (e instanceof ApiError ? e.status : -1));
    await expect.poll(status, { timeout: 30_000 }).toBe(404);
    expect(await live()).toEqual([]);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
  }, 120_000);
});
