/**
 * Issue 9 §2: a receipt captured offline, end to end, on real parts only (the built PWA served
 * by the real server, headless Chromium). Offline, a generated PNG is attached to a transaction
 * in the detail drawer → its thumbnail shows from the device, "Waiting to upload" → an offline
 * reload keeps both → online, the outbox uploads it and attaches it → the server holds exactly
 * one receipt with the file's sha256, attached to that transaction, and the drawer says
 * "Uploaded". No Content Security Policy violation (thumbnails are blob: URLs).
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setNetwork, pollPage, signIn, waitForServiceWorkerControl, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { COLUMNS, mirrorProgressBar, rowAt, waitForTotal } from '../support/transactions-page.ts';
import { countTransactions } from '../support/db-checks.ts';

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';
const FILE_NAME = 'lunch-receipt.png';

/** A valid 48×32 RGB PNG (one colour), built here so the test needs no fixture file. */
function makePng(width = 48, height = 32, rgb = [200, 60, 20]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG = makePng();
const SHA256 = createHash('sha256').update(PNG).digest('hex');

let transactionId = '';

useServerAndBrowser({ transactions: 200 });

const drawerOf = (page: Page): Locator => page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
const receiptsOf = (drawer: Locator): Locator => drawer.getByRole('region', { name: 'Receipts' });

/** The thumbnail's image has really been decoded from the device's blob (not a broken image). */
async function thumbnailShown(page: Page) {
  return pollPage(page, (name) => {
    const img = [...document.querySelectorAll('img')].find((i) => i.alt === name);
    return !!img && img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:');
  }, FILE_NAME);
}

async function receiptsOnServer() {
  return server.db.query<{ id: string; sha256: string; size: number; transaction_id: string | null }>(
    `SELECT r.id, r.sha256, r.size, tr.transaction_id FROM receipts r
       LEFT JOIN transaction_receipts tr ON tr.receipt_id = r.id
      WHERE r.business_id = $1 AND NOT r.deleted`,
    [server.businessId],
  );
}

describe('receipts, offline first, end to end', () => {
  it('signs in, mirrors, and runs under the service worker', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    const total = await countTransactions(server.db, server.businessId);
    await waitForTotal(page, total, 120_000);
    await waitForServiceWorkerControl(page);
    await waitForTotal(page, total, 120_000);
    await mirrorProgressBar(page).waitFor({ state: 'detached', timeout: 120_000 });
    await waitForSyncStatus(page, 'All changes synced', 120_000);
  });

  it('offline: attaches a photo in the drawer; its thumbnail shows from the device, waiting to upload', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    await rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.merchant).click();
    const drawer = drawerOf(page);
    const receipts = receiptsOf(drawer);
    await expect.poll(() => receipts.getByText('No receipt yet.').count()).toBe(1);
    transactionId = new URL(page.url()).searchParams.get('open') ?? '';
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);

    const picker = receipts.getByLabel('Add receipt');
    expect(await picker.getAttribute('accept')).toBe('image/*,application/pdf');
    expect(await picker.getAttribute('capture')).toBe('environment');
    expect(await picker.getAttribute('multiple')).not.toBeNull();
    await picker.setInputFiles({ name: FILE_NAME, mimeType: 'image/png', buffer: PNG });

    await expect.poll(() => receipts.getByText('Waiting to upload').count(), { timeout: 30_000 }).toBe(1);
    await thumbnailShown(page);
    expect(await receiptsOnServer()).toEqual([]);
  });

  it('an offline reload keeps the thumbnail and the waiting upload', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    // The open row is in the URL: the drawer comes back on the same transaction.
    const receipts = receiptsOf(drawerOf(page));
    await expect.poll(() => receipts.getByText('Waiting to upload').count(), { timeout: 30_000 }).toBe(1);
    await thumbnailShown(page);
    expect(await receiptsOnServer()).toEqual([]);
  });

  it('online: the outbox uploads and attaches it; the server holds exactly one receipt, with that sha256, on that transaction', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(receiptsOnServer, { timeout: 30_000 }).toEqual([
      { id: expect.any(String), sha256: SHA256, size: PNG.length, transaction_id: transactionId },
    ]);
    const receipts = receiptsOf(drawerOf(page));
    await expect.poll(() => receipts.getByText('Uploaded').count(), { timeout: 30_000 }).toBe(1);
    await thumbnailShown(page);
    expect(browser.cspViolations).toEqual([]);
  });
});
