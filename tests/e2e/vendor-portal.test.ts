/**
 * Issue 31 (helpers H and H4), the vendor portal end to end on real parts: the built PWA served by
 * the real server (PGlite, development mailbox on) in headless Chromium. The demo admin invites a
 * bill's vendor to the network by clicking in its vendor drawer; the invitation link is read from
 * the development mailbox and opened signed out; the vendor sets a password and lands on Payments;
 * on Profile the ACH account and the EIN are saved after "Confirm it's you", each saying what
 * happened at the payer, then shown as last four only; a W-9 (a small PDF) is uploaded after the
 * mailed-code step-up and listed. The payer pays the vendor's bill (through the API: the payment is
 * not the surface under test) and Payments shows it on its way with its expected arrival date. axe
 * finds nothing serious on Payments, Profile, Payers and Changes at desktop and 390 px, nothing
 * scrolls sideways at 360 px, and the payer's vendor drawer shows the vendor joined, its tax ID
 * verified by vendor, its bank change waiting and the W-9 it shares.
 */
import { describe, expect, it } from 'vitest';
import { createBill, payBillsNow } from '../../schema/api/calls-bills.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';
import { mailedCode, waitForMail } from '../support/dev-outbox.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { invoicePdf } from '../support/invoice-pdf.ts';
import { approveThroughChain } from '../support/procurement-data.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR_EMAIL = 'ar-e2e@vendor-portal.test';
const VENDOR_PASSWORD = 'vendor-password-1';
const day = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const PAGES = ['/vendor-portal', '/vendor-portal/profile', '/vendor-portal/payers', '/vendor-portal/changes'];

useServerAndBrowser({ transactions: 5, devOutbox: true }, 180_000, { viewport: { width: 1280, height: 900 } });

async function invitePath(email: string): Promise<string> {
  return waitForMail(server.url, email, (messages) =>
    /https?:\/\/[^\s]+(\/vendor-portal\/invite#token=[A-Za-z0-9_-]+)/.exec(messages.map((x) => x.body).join('\n'))?.[1], 'no invitation mailed');
}

describe('vendor portal', () => {
  it('a bill vendor invited from its drawer joins, saves bank and tax details, uploads a W-9, sees its payment on its way; the payer sees it verified with the W-9', async () => {
    printBrowserLogsOnFailure({ vendor: browser });
    const { page } = browser;
    // A vendor not in the network yet (the seeded network vendor is on another), one with a bank account at the payer first; a bill to pay it.
    const [vendor] = await server.db.query<{ id: string; name: string }>(
      `SELECT id::text, name FROM vendors v WHERE business_id = $1 AND NOT deleted AND status = 'ACTIVE'
          AND NOT EXISTS (SELECT 1 FROM network_vendor_links l WHERE l.vendor_id = v.id)
        ORDER BY bank_account_cipher IS NULL, name LIMIT 1`, [server.businessId]);
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const bill = await admin.call(createBill, {
      body: {
        vendor_id: vendor!.id, invoice_number: 'INV-E2E-PORTAL-1', invoice_date: day(-2), due_date: day(14), currency: 'USD', submit: true,
        line_items: [{ description: 'Vendor portal e2e', amount: 12_500 }],
      },
    });

    // The payer invites by clicking in the vendor's drawer.
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    await page.goto(`/vendors?open=${vendor!.id}`);
    const network = page.getByRole('region', { name: 'Vendor network' });
    await network.getByLabel(/Vendor.s email/).fill(VENDOR_EMAIL, { timeout: 60_000 });
    await network.getByRole('button', { name: 'Invite to the vendor network' }).click();
    await expect.poll(() => network.getByRole('status').textContent(), { timeout: 30_000 }).toContain(`Invitation sent to ${VENDOR_EMAIL}`);
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Email').waitFor({ state: 'visible', timeout: 30_000 });

    await page.goto(await invitePath(VENDOR_EMAIL));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 }).toMatch(/invited you to get paid through Ledgerline/);
    await page.getByRole('button', { name: 'Join and open the vendor portal' }).click();
    await expect.poll(() => page.getByText('Enter your first name.').count()).toBe(1);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Vendor');
    await page.getByLabel('Password').fill(VENDOR_PASSWORD);
    await page.getByRole('button', { name: 'Join and open the vendor portal' }).click();
    await page.waitForURL(/\/vendor-portal$/, { timeout: 30_000 });
    await expect.poll(() => page.getByRole('heading', { name: 'Payments', level: 1 }).count(), { timeout: 30_000 }).toBe(1);

    await page.getByRole('link', { name: 'Profile' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Bank account for ACH' }).count(), { timeout: 30_000 }).toBe(1);
    const bank = page.getByRole('region', { name: 'Bank account for ACH' });
    await bank.getByLabel('Name on the account').fill('Ada Vendor LLC');
    await bank.getByLabel('Routing number').fill('021000022');
    await bank.getByLabel('Account number').fill('12345678');
    await bank.getByRole('button', { name: 'Save bank account' }).click();
    await expect.poll(() => bank.getByText('Enter a valid 9-digit ABA routing number.').count()).toBe(1);
    await bank.getByLabel('Routing number').fill('021000021');
    await bank.getByRole('button', { name: 'Save bank account' }).click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it\'s you' });
    await stepUp.getByLabel('Password').fill(VENDOR_PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => bank.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/Your bank account is saved\./);
    await expect.poll(() => bank.getByText(/Checking ending 5678, routing ending 0021/).count()).toBe(1);

    const tin = page.getByRole('region', { name: 'Tax ID' });
    await tin.getByRole('textbox', { name: /^EIN/ }).fill('12-3456789');
    await tin.getByRole('button', { name: 'Save tax ID' }).click();
    if (await stepUp.count()) {
      await stepUp.getByLabel('Password').fill(VENDOR_PASSWORD);
      await stepUp.getByRole('button', { name: 'Confirm' }).click();
    }
    await expect.poll(() => tin.getByRole('status').textContent(), { timeout: 30_000 }).toMatch(/Your tax ID is saved\./);
    await expect.poll(() => tin.getByText(/EIN ending 6789/).count()).toBe(1);

    // A W-9, after the code mailed to the vendor's address.
    const documents = page.getByRole('region', { name: 'Documents' });
    await documents.getByLabel(/^File/).setInputFiles({ name: 'w9.pdf', mimeType: 'application/pdf', buffer: invoicePdf(['Form W-9', 'Ada Vendor LLC', 'EIN 12-3456789']) });
    await documents.getByRole('button', { name: 'Upload document' }).click();
    await expect.poll(() => stepUp.getByText(`We emailed a 6-digit code to ${VENDOR_EMAIL}.`).count(), { timeout: 30_000 }).toBe(1);
    await stepUp.getByLabel('Code from the email').fill(await mailedCode(server.url, VENDOR_EMAIL));
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => documents.getByRole('status').textContent(), { timeout: 30_000 }).toContain('W-9 (US tax form) uploaded');
    await expect.poll(() => documents.getByRole('list', { name: 'Your documents' }).getByText(/PDF · .* · uploaded/).count()).toBe(1);

    // The payer pays the vendor's bill (the API: the payment is not the surface under test).
    await approveThroughChain(server, bill.id);
    const paid = await admin.call(payBillsNow, { body: { bill_ids: [bill.id] } });
    expect(paid.results[0]).toMatchObject({ ok: true });
    await page.getByRole('link', { name: 'Payments' }).click();
    const row = page.getByRole('list', { name: 'Payments' }).getByRole('listitem').filter({ hasText: `Invoice ${bill.invoice_number}` });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/On its way|Paid/);
    expect(await row.textContent()).toMatch(/Expected [A-Z][a-z]{2} \d{1,2}, \d{4}/);

    // The size is set again after each navigation: a navigation here was seen to come back at the launch size (1280).
    for (const width of [1280, 390]) {
      for (const path of PAGES) {
        await page.goto(path);
        await page.setViewportSize({ width, height: width > 400 ? 900 : 800 });
        await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
        await page.getByText(/^Loading your/).waitFor({ state: 'detached', timeout: 30_000 });
        expect(await page.evaluate(() => window.innerWidth), path).toBe(width);
        expect(await axeFindings(page), `${path} at ${width} px`).toEqual([]);
      }
    }
    for (const path of PAGES) {
      await page.goto(path);
      await page.setViewportSize({ width: 360, height: 800 });
      expect(await page.evaluate(() => window.innerWidth), path).toBe(360);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await expectNoHorizontalScroll(page, `${path} at 360 px`);
    }

    // The payer's side: joined, the tax ID verified by the vendor, the bank change waiting, and the W-9 shared.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/sign-in/, { timeout: 30_000 });
    await signIn(page, ADMIN, PASSWORD);
    await page.goto(`/vendors?open=${vendor!.id}`);
    await expect.poll(() => network.getByText('Joined').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => network.getByText('Tax ID: Verified by vendor').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => network.getByText(/Bank account: checking ending 5678/).count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => network.getByRole('list', { name: 'Documents from the vendor' }).getByRole('button', { name: 'Download W-9' }).count(), { timeout: 30_000 }).toBe(1);
  }, 150_000);
});
