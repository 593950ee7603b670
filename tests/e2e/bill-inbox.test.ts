/**
 * Issue 11 §7, end to end: the bill inbox on real parts only — the built PWA (dist/) served by
 * the real server (PGlite) in Debian's headless Chromium.
 *
 * The admin (who manages bill pay) opens Bills → Inbox (empty, saying what it is for), waits
 * until the OCR engine is cached for offline use and goes offline. Two invoice images (drawn in
 * the page: a vendor the business has and one it does not, each with its number, dates and
 * total) are dropped at once: two rows show at once, waiting to sync, and each image is read on
 * the device (vendor matched by name or "Vendor not found", invoice number, total). Back online
 * both sync (uploaded, then created under the server's file ids). "Complete bill" on the known
 * vendor's invoice opens the bill form prefilled; saving the draft leaves one row in the inbox,
 * and the server holds the bill with that invoice file and exactly one provisional bill.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openSection, pollPage, setNetwork, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';

useServerAndBrowser({ transactions: 20 });

/** An invoice as a photo of it would read: a PNG of its lines drawn in the page (canvas → bytes). */
async function invoicePng(page: Page, lines: string[]): Promise<Buffer> {
  const bytes = await page.evaluate(async (text: string[]) => {
    const canvas = new OffscreenCanvas(900, 90 + text.length * 52);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#111111';
    g.font = '32px sans-serif';
    text.forEach((line, i) => g.fillText(line, 40, 70 + i * 52));
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    return [...new Uint8Array(await blob.arrayBuffer())];
  }, lines);
  return Buffer.from(bytes);
}

const invoice = (vendor: string, number: string, total: string) => [
  vendor, '1200 Market St, Suite 400', 'INVOICE', `Invoice # ${number}`, 'Invoice Date: 11/02/2026', 'Due Date: 12/02/2026',
  'Machined parts', `Total Due $${total}`,
];

async function liveProvisional(): Promise<{ id: string; invoice_file_id: string; invoice_number: string | null }[]> {
  return server.db.query(
    `SELECT id::text, invoice_file_id::text, invoice_number FROM provisional_bills WHERE business_id = $1 AND NOT deleted ORDER BY invoice_number`,
    [server.businessId],
  );
}

describe('the bill inbox, end to end', () => {
  it('drops two invoices offline, reads them on the device, syncs them, and completes one into a bill', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page, context } = browser;
    await signInForOffline(page, ADMIN, PASSWORD);

    await openSection(page, 'Bills');
    await page.getByRole('navigation', { name: 'Bill pay' }).getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { name: 'Inbox', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your bill inbox is empty' }).waitFor();
    expect(await liveProvisional()).toEqual([]);

    // The OCR engine and model are cached once the first mirror is done: reading works offline.
    await pollPage(page, async () => (await (await caches.open('ledgerline-ocr')).keys()).length >= 4, undefined, { timeout: 60_000 });
    const known = await invoicePng(page, invoice(VENDOR, 'INV-E2E-71', '1,234.50'));
    const unknown = await invoicePng(page, invoice('Northwind Fabrication', 'INV-E2E-72', '880.00'));

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    const picker = page.getByLabel('Upload invoices');
    expect(await picker.getAttribute('multiple')).not.toBeNull();
    await picker.setInputFiles([
      { name: 'pacific-invoice.png', mimeType: 'image/png', buffer: known },
      { name: 'northwind-invoice.png', mimeType: 'image/png', buffer: unknown },
    ]);

    // Both at once, from this device, waiting to sync.
    // The inbox's data rows (the grid's header row holds column headers, no cells).
    const rows = page.getByRole('grid', { name: 'Invoices to complete' }).getByRole('row').filter({ has: page.getByRole('gridcell') });
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    expect(await rows.filter({ hasText: WAITING_TO_SYNC }).count()).toBe(2);
    await page.getByRole('navigation', { name: 'Bill pay' }).getByTestId('inbox-nav-count').filter({ hasText: '2' }).waitFor();

    // Read on the device: what was found is saved on each row (still offline).
    const pacific = rows.filter({ hasText: 'INV-E2E-71' });
    const northwind = rows.filter({ hasText: 'INV-E2E-72' });
    await pacific.waitFor({ timeout: 120_000 });
    await northwind.waitFor({ timeout: 120_000 });
    await pacific.getByText(VENDOR).waitFor();
    await pacific.getByText('$1,234.50').waitFor();
    await northwind.getByText('Vendor not found').waitFor();
    await northwind.getByText('$880.00').waitFor();
    expect(await liveProvisional()).toEqual([]);

    // Back online: each file uploads, then its provisional bill is created under the server's file id.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await liveProvisional()).map((r) => r.invoice_number), { timeout: 30_000 }).toEqual(['INV-E2E-71', 'INV-E2E-72']);
    const [stored] = await liveProvisional();
    const [file] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts WHERE id = $1 AND business_id = $2', [stored!.invoice_file_id, server.businessId]);
    expect(file!.n).toBe(1);
    await expect.poll(() => rows.filter({ hasText: WAITING_TO_SYNC }).count(), { timeout: 30_000 }).toBe(0);

    // Complete the known vendor's invoice into a bill: the form opens prefilled.
    await pacific.getByRole('button', { name: 'Complete bill for invoice INV-E2E-71' }).click();
    const form = page.getByRole('dialog', { name: 'Complete bill' });
    await form.waitFor();
    expect(await form.getByLabel('Invoice number').inputValue()).toBe('INV-E2E-71');
    expect(await form.getByLabel('Due date').inputValue()).toBe('2026-12-02');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain('INV-E2E-72');

    // The server has the bill with the invoice's file, and one provisional bill left.
    await expect.poll(async () => server.db.query<{ invoice_file_id: string | null; amount: string }>(
      'SELECT invoice_file_id::text, amount::text FROM bills WHERE business_id = $1 AND invoice_number = $2 AND NOT deleted',
      [server.businessId, 'INV-E2E-71'],
    ), { timeout: 30_000 }).toEqual([{ invoice_file_id: stored!.invoice_file_id, amount: '123450' }]);
    await expect.poll(async () => (await liveProvisional()).map((r) => r.invoice_number), { timeout: 30_000 }).toEqual(['INV-E2E-72']);
  }, 300_000);
});
