/**
 * Switching end to end: the built PWA on the real server (PGlite) in headless Chromium. The admin,
 * on a 390 px touch phone, opens Cards → Move vendors (axe clean on the empty state); a file that is
 * no card statement is refused in words with nothing kept on the server; an Amex-style CSV lists the
 * two vendors it pays monthly (the one-off coffee is not one) with what each charged; "Move to a
 * card" says which card it will issue, follows a changed limit, and issues exactly one virtual card
 * (server: one card, the vendor linked, limit 60.00 USD a month); "Remove" asks first and the vendor
 * is gone on the server too. No sideways scroll at 360 and 390 px, the dialog included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, signIn, type BrowserSession } from '../support/browser.ts';
import { printBrowserLogsOnFailure } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const PHONE = { width: 390, height: 844 };
const STATEMENT = [
  'Date,Description,Amount',
  '09/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
  '10/03/2026,NETFLIX.COM 866-579-7172 CA,15.49',
  '09/12/2026,"FIGMA, INC.",45.00',
  '10/12/2026,"FIGMA, INC.",45.00',
  '10/20/2026,BLUE BOTTLE COFFEE #12,6.50',
  '10/25/2026,AUTOPAY PAYMENT - THANK YOU,-250.00',
].join('\n');

let server: TestServer;
let phone: BrowserSession;

beforeAll(async () => {
  server = await startTestServer({ transactions: 10, serveDist: true });
  phone = await launchBrowser({ baseURL: server.url, viewport: PHONE, hasTouch: true, isMobile: true });
}, 120_000);

afterAll(async () => {
  await phone?.close();
  await server?.close();
});

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  for (const width of [360, PHONE.width]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `${where} at ${width}` }).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize(PHONE);
}

const upload = (page: Page, name: string, text: string) =>
  page.getByLabel('Card statement CSV').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

describe('moving vendors from the old card', () => {
  it('reads a statement, moves a vendor onto exactly one card and removes another', async () => {
    printBrowserLogsOnFailure({ phone });
    const page = phone.page;
    await page.goto('/sign-in');
    await signIn(page, ADMIN, PASSWORD);
    await page.goto('/cards');
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Move vendors' }).tap();
    await page.getByRole('heading', { name: 'Move vendors to Ledgerline', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No statement yet' }).waitFor();
    expect(await axeFindings(page, PHONE)).toEqual([]);
    await noSidewaysScroll(page, 'empty');

    // A file that is no card statement: refused in words, nothing kept.
    await upload(page, 'people.csv', 'Name,Email\nAda,ada@example.com');
    await page.getByText(/needs a date, a description and an amount/).waitFor();
    expect(await server.db.query('SELECT 1 FROM switching_imports WHERE business_id = $1', [server.businessId])).toHaveLength(0);

    await upload(page, 'amex.csv', STATEMENT);
    await page.getByRole('status').filter({ hasText: '5 charges read from amex.csv, 1 payment or refund left out.' }).waitFor();
    const vendors = page.getByRole('region', { name: 'Vendors (2 to move, 0 moved)' });
    await vendors.waitFor();
    const rows = vendors.getByRole('listitem');
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(/Figma Inc\.[\s\S]*Monthly · 2 charges, Sep 2026 – Oct 2026[\s\S]*\$45\.00[\s\S]*\$90\.00 USD in all/),
      expect.stringMatching(/Netflix\.com[\s\S]*Monthly · 2 charges[\s\S]*\$15\.49[\s\S]*\$30\.98 USD in all/),
    ]);
    await noSidewaysScroll(page, 'vendors');

    // Move Figma: the dialog says what it will issue and follows the limit typed.
    await rows.first().getByRole('button', { name: 'Move to a card' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Move Figma Inc. to its own card' });
    await dialog.waitFor();
    await dialog.getByText(/Issues a virtual card “Figma Inc\.” to .+ that can spend \$50\.00 a month\./).waitFor();
    await dialog.getByLabel('Limit (USD)').fill('60');
    await dialog.getByText(/that can spend \$60\.00 a month\./).waitFor();
    expect(await axeFindings(page, PHONE)).toEqual([]);
    await noSidewaysScroll(page, 'dialog');
    await dialog.getByRole('button', { name: 'Issue card' }).tap();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Vendors (1 to move, 1 moved)' }).waitFor();
    await page.getByText(/Moved to Figma Inc\. ••\d{4}/).waitFor();
    const cards = await server.db.query<{ id: string; limit_amount: number; limit_interval: string; is_physical: boolean }>(
      `SELECT id::text, limit_amount, limit_interval, is_physical FROM cards WHERE business_id = $1 AND display_name = 'Figma Inc.'`, [server.businessId]);
    expect(cards).toEqual([{ id: expect.any(String), limit_amount: 6000, limit_interval: 'MONTHLY', is_physical: false }]);
    const linked = await server.db.query<{ card_id: string }>(`SELECT card_id::text FROM switching_vendors WHERE business_id = $1 AND name = 'Figma Inc.'`, [server.businessId]);
    expect(linked[0]!.card_id).toBe(cards[0]!.id);

    // Remove Netflix: asked first, then gone here and on the server.
    await page.getByRole('button', { name: 'Remove Netflix.com' }).tap();
    const confirm = page.getByRole('dialog', { name: 'Remove Netflix.com?' });
    await confirm.getByText('does not come back with a later statement').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).tap();
    await page.getByRole('region', { name: 'Vendors (0 to move, 1 moved)' }).waitFor();
    const dismissed = await server.db.query(`SELECT 1 FROM switching_vendors WHERE business_id = $1 AND name = 'Netflix.com' AND dismissed_at IS NOT NULL`, [server.businessId]);
    expect(dismissed).toHaveLength(1);
  }, 120_000);
});
