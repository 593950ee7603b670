/**
 * Issue 9 §2, matching: the demo employee, offline, uploads a receipt on /receipts (a PNG drawn in the
 * page: canvas → Blob), types its amount, date and merchant by hand (no OCR here), and the
 * worker matches it over the local mirror to their card transaction of that amount and day —
 * the only one in the ±3 day window, so exact — and attaches it at once ("Attached
 * automatically to …", the Matched tab). The transaction's drawer shows the receipt; back online,
 * the server holds it attached to that transaction exactly once. No CSP violation.
 *
 * Issue 25 §11, offline again: a photo of a real-looking receipt uploaded on /receipts is read on
 * the device (the claim form's OCR) and its amount, date and merchant fill the card, marked as
 * read from the receipt. "Create out-of-pocket claim" opens the claim with that receipt; once the
 * claim is saved, the receipt is in "Matched", says which claim uses it and offers no other claim.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSection, pollPage, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { axeFindings } from '../support/axe.ts';
import { userByEmail } from '../support/db-checks.ts';

const PASSWORD = 'demo-password-1';
const EMPLOYEE = 'employee@demo.test';
const FILE_NAME = 'coffee-receipt.png';
/** A generated receipt (tests/fixtures/receipts/truth.json: Uber, $23.18, 2026-11-09). */
const PHOTO_NAME = 'r08-ride-usd.png';
const PHOTO_FILE = fileURLToPath(new URL(`../fixtures/receipts/${PHOTO_NAME}`, import.meta.url));

interface Txn { id: string; amount: number; currency: string; occurred_at: string; merchant_name: string; state: string }

let target: Txn;

useServerAndBrowser({ transactions: 200 });

const day = (iso: string) => iso.slice(0, 10);
const daysApart = (a: string, b: string) => Math.abs(Date.parse(`${day(a)}T00:00:00Z`) - Date.parse(`${day(b)}T00:00:00Z`)) / 86_400_000;

/** One of the employee's card transactions no other of theirs could be taken for (amount, currency, ±3 days). */
async function pickTransaction(userId: string): Promise<Txn> {
  const rows = (await server.db.query<Txn & { occurred_at: string | Date; amount: string | number }>(
    `SELECT id::text AS id, amount, currency, occurred_at, merchant_name, state FROM transactions
      WHERE business_id = $1 AND user_id = $2 AND NOT deleted`,
    [server.businessId, userId],
  )).map((r) => ({ ...r, amount: Number(r.amount), occurred_at: new Date(r.occurred_at).toISOString() }));
  const now = new Date().toISOString();
  const fits = rows.find((t) =>
    (t.state === 'CLEARED' || t.state === 'PENDING') && t.amount > 0 && t.occurred_at < now &&
    !rows.some((o) => o.id !== t.id && o.amount === t.amount && o.currency === t.currency && daysApart(o.occurred_at, t.occurred_at) <= 3));
  if (!fits) throw new Error('no unambiguous transaction for the employee');
  return fits;
}

async function attachmentsOnServer(transactionId: string) {
  return server.db.query<{ receipt_id: string; size: number }>(
    `SELECT tr.receipt_id::text AS receipt_id, r.size FROM transaction_receipts tr JOIN receipts r ON r.id = tr.receipt_id
      WHERE tr.transaction_id = $1`,
    [transactionId],
  );
}

/** A PNG drawn in the page (canvas → Blob), as bytes. */
async function pngFromCanvas(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(64, 40);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#f4efe6';
    g.fillRect(0, 0, 64, 40);
    g.fillStyle = '#1f3a93';
    g.fillRect(8, 8, 48, 6);
    g.fillRect(8, 20, 30, 4);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  return Buffer.from(bytes);
}

describe('receipt matching, end to end', () => {
  it('the employee signs in and mirrors their transactions', async () => {
    printBrowserLogsOnFailure({ browser });
    const me = await userByEmail(server.db, server.businessId, EMPLOYEE);
    target = await pickTransaction(me.id);
    const { page } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);
  });

  it('offline, on /receipts: upload, type the fields, and it is attached automatically to that transaction', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await openSection(page, 'Receipts');
    await page.getByRole('heading', { name: 'Receipts', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No receipts to match' }).waitFor();

    const picker = page.getByLabel('Upload receipts');
    expect(await picker.getAttribute('multiple')).not.toBeNull();
    await picker.setInputFiles({ name: FILE_NAME, mimeType: 'image/png', buffer: await pngFromCanvas(page) });

    const card = page.getByRole('article', { name: `Receipt ${FILE_NAME}` });
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getByText('Add the amount and date to find its card transaction.').count()).toBe(1);
    const amount = (target.amount / 100).toFixed(2);
    await card.getByLabel('Amount').fill(amount);
    await card.getByLabel('Currency').selectOption(target.currency);
    await card.getByLabel('Date').fill(day(target.occurred_at));
    await card.getByLabel('Merchant').fill(target.merchant_name);
    await card.getByRole('button', { name: 'Save and match' }).click();

    // Exact: attached at once, so it leaves "To match" for "Matched", saying so.
    await page.getByRole('tab', { name: 'Matched (1)' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'To match (0)' }).waitFor();
    await page.getByRole('tab', { name: 'Matched (1)' }).click();
    const matched = page.getByRole('article', { name: `Receipt ${FILE_NAME}` });
    await expect.poll(() => matched.getByText(`Attached automatically to ${target.merchant_name}`, { exact: false }).count()).toBe(1);

    // Undo: back in the inbox with the match as a suggestion (never re-attached on its own); Attach.
    await matched.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('tab', { name: 'To match (1)' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'To match (1)' }).click();
    const back = page.getByRole('article', { name: `Receipt ${FILE_NAME}` });
    await expect.poll(() => back.getByText(`Matches ${target.merchant_name}`, { exact: false }).count()).toBe(1);
    expect(await axeFindings(page)).toEqual([]);
    await back.getByRole('button', { name: `Attach to ${target.merchant_name}`, exact: false }).click();
    await page.getByRole('tab', { name: 'Matched (1)' }).waitFor({ timeout: 30_000 });
  });

  it("the transaction's drawer shows the receipt; back online, the server has it attached exactly once", async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await page.goto(`/transactions?open=${target.id}`);
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    const receipts = drawer.getByRole('region', { name: 'Receipts' });
    await receipts.waitFor({ timeout: 30_000 });
    await pollPage(page, (name) => {
      const img = [...document.querySelectorAll('img')].find((i) => i.alt === name);
      return !!img && img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:');
    }, FILE_NAME);
    await expect.poll(() => receipts.getByText('Waiting to upload').count()).toBe(1);
    expect(await attachmentsOnServer(target.id)).toEqual([]);
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(() => attachmentsOnServer(target.id), { timeout: 30_000 }).toHaveLength(1);
    await expect.poll(() => receipts.getByText('Uploaded').count(), { timeout: 30_000 }).toBe(1);
    expect(await attachmentsOnServer(target.id)).toHaveLength(1);
    expect(browser.cspViolations).toEqual([]);
  });

  it('offline, a receipt photo is read on the device and fills the fields; used by a claim, it is matched and offered for no other', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    // Once the first mirror is done the app caches the OCR engine and model for offline use.
    await pollPage(page, async () => (await (await caches.open('ledgerline-ocr')).keys()).length >= 4, undefined, { timeout: 60_000 });
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await openSection(page, 'Receipts');
    await page.getByRole('heading', { name: 'Receipts', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'To match (0)' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'To match (0)' }).click();

    await page.getByLabel('Upload receipts').setInputFiles(PHOTO_FILE);
    const card = page.getByRole('article', { name: `Receipt ${PHOTO_NAME}` });
    await card.waitFor({ timeout: 30_000 });
    await card.getByText('Read from the receipt', { exact: false }).waitFor({ timeout: 90_000 });
    expect(await card.getByLabel('Amount').inputValue()).toBe('23.18');
    expect(await card.getByLabel('Currency').inputValue()).toBe('USD');
    expect(await card.getByLabel('Date').inputValue()).toBe('2026-11-09');
    expect(await card.getByLabel('Merchant').inputValue()).toMatch(/uber/i);
    await page.getByRole('tab', { name: 'To match (1)' }).waitFor();

    // No card transaction of that amount and day: it becomes an out-of-pocket claim, prefilled from the reading.
    await card.getByRole('link', { name: 'Create out-of-pocket claim' }).click();
    const form = page.getByRole('dialog', { name: 'New out-of-pocket claim' });
    await form.waitFor({ timeout: 30_000 });
    await expect.poll(() => form.getByLabel('Amount', { exact: true }).inputValue()).toBe('23.18');
    expect(await form.getByLabel('Date', { exact: true }).inputValue()).toBe('2026-11-09');
    await form.getByRole('group', { name: 'Receipts' }).getByRole('img', { name: PHOTO_NAME }).waitFor({ timeout: 30_000 });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.waitFor({ state: 'detached' });

    // Used in that claim: out of "To match", in "Matched" saying so, and no second claim offered.
    await openSection(page, 'Receipts');
    await page.getByRole('tab', { name: 'To match (0)' }).waitFor({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Matched (2)' }).click();
    const used = page.getByRole('article', { name: `Receipt ${PHOTO_NAME}` });
    await expect.poll(() => used.getByText('Used in claim:', { exact: false }).textContent(), { timeout: 30_000 }).toContain('$23.18');
    expect(await used.getByText('Used in claim:', { exact: false }).textContent()).toMatch(/uber/i);
    expect(await page.getByRole('link', { name: 'Create out-of-pocket claim' }).count()).toBe(0);
    expect(await used.getByRole('button', { name: /remove/i }).count()).toBe(0);

    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    expect(browser.cspViolations).toEqual([]);
  }, 240_000);
});
