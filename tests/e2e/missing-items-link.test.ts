/**
 * Issue 29, the reminder mail's link end to end (real server on PGlite, built PWA, Chromium at
 * 360 px with touch): the admin reminds the employee; the mail's `/missing-items#token=…` opened
 * in a browser nobody signed in to lands on /missing-items/link with the fragment gone from the
 * address at once; the charge that misses a receipt is shown with "Sign in to add memos and
 * coding"; a photo attaches the receipt on the server; axe finds nothing serious.
 */
import { describe, expect, it } from 'vitest';
import { simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { listMissingItems, sendMissingItemReminders } from '../../schema/api/calls-expense-policies.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { userByEmail } from '../support/db-checks.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const MERCHANT = 'E2E Link Stationers';
const PHONE = { width: 360, height: 740 };
// The smallest valid PNG (1×1): the server checks the signature.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

useServerAndBrowser({ transactions: 10, devOutbox: true }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

describe('the reminder link, end to end', () => {
  it('opens signed out, drops the fragment at once, and adds a receipt only', async () => {
    printBrowserLogsOnFailure({ browser });
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const employeeApi = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const cards = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM cards WHERE business_id = $1 AND user_id = $2 AND status = 'ACTIVE' AND NOT deleted ORDER BY created_at, id`, [server.businessId, employee.id],
    );
    let charged = false;
    for (const card of cards) {
      const r = await employeeApi.call(simulateAuthorization, { params: { card_uuid: card.id }, body: { amount: 20_000, merchant: MERCHANT, merchant_category: 'Office Supplies' } });
      if (r.approved) {
        charged = true;
        break;
      }
    }
    expect(charged).toBe(true);
    const [txn] = await server.db.query<{ id: string }>('SELECT id::text AS id FROM transactions WHERE business_id = $1 AND merchant_name = $2', [server.businessId, MERCHANT]);
    const missing = async () => (await employeeApi.call(listMissingItems, { query: { page_size: '100' } })).data.find((i) => i.object_id === txn!.id);
    expect((await missing())?.violations.map((v) => v.code)).toContain('missing_receipt');

    const adminApi = await apiSignIn(server.url, ADMIN, PASSWORD);
    const sent = await adminApi.call(sendMissingItemReminders, { body: { user_ids: [employee.id] } });
    expect(sent.reminded.map((r) => r.user_id)).toEqual([employee.id]);
    const [mail] = await server.db.query<{ body: string }>('SELECT body FROM dev_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT 1', [EMPLOYEE]);
    const link = /(\/missing-items#token=[^\s]+)/.exec(mail!.body)![1]!;

    const { page } = browser;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Add your receipts', level: 1 }).waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/missing-items/link');
    expect(page.url()).not.toContain('token');
    expect(await page.getByRole('note').textContent()).toMatch(/Sign in to add memos and coding/);
    await page.locator('#link-item-title').waitFor({ timeout: 30_000 });
    for (let i = 0; i < 40 && (await page.locator('#link-item-title').textContent()) !== MERCHANT; i++) await page.getByRole('button', { name: 'Skip' }).tap();
    expect(await page.locator('#link-item-title').textContent()).toBe(MERCHANT);
    expect(await axeFindings(page, PHONE)).toEqual([]);
    expect(await page.getByRole('textbox', { name: 'Memo' }).count()).toBe(0);

    await page.getByLabel('Take a photo of the receipt').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(async () => (await missing())?.violations.map((v) => v.code).includes('missing_receipt') ?? false, { timeout: 30_000 }).toBe(false);
    const [attached] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transaction_receipts WHERE transaction_id = $1', [txn!.id]);
    expect(attached).toEqual({ n: 1 });
  });
});
