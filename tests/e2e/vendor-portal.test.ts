/**
 * Issue 31 (helper H), the vendor portal end to end on real parts: the built PWA served by the real
 * server (PGlite, development mailbox on) in headless Chromium. The demo admin invites one of the
 * business's vendors to the network (through the API); the
 * invitation link is read from the development mailbox and opened signed out; the vendor sets a
 * password and lands on Payments; on Profile the ACH account and the EIN are saved after "Confirm
 * it's you", each saying what happened at the payer, then shown as last four only. axe finds nothing
 * serious on the portal's pages (desktop and phone sizes), nothing scrolls sideways at 360 px, and the
 * payer's vendor drawer shows the vendor joined, its tax ID verified by vendor and its bank change waiting.
 */
import { describe, expect, it } from 'vitest';
import { devOutbox } from '../../schema/api/calls-identity.ts';
import { inviteNetworkVendor } from '../../schema/api/calls-vendor-network-payer.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR_EMAIL = 'ar-e2e@vendor-portal.test';
const VENDOR_PASSWORD = 'vendor-password-1';

useServerAndBrowser({ transactions: 5, devOutbox: true }, 180_000, { viewport: { width: 1280, height: 900 } });

async function invitePath(email: string): Promise<string> {
  const url = new URL(devOutbox.path, server.url);
  url.searchParams.set('email', email);
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const { messages } = devOutbox.response.parse(await res.json());
  const m = /https?:\/\/[^\s]+(\/vendor-portal\/invite#token=[A-Za-z0-9_-]+)/.exec(messages[0]?.body ?? '');
  if (!m) throw new Error(`no invitation mailed to ${email}`);
  return m[1]!;
}

describe('vendor portal', () => {
  it('an invited vendor joins from the mailed link, saves bank and tax details with step-up, and the pages are accessible', async () => {
    printBrowserLogsOnFailure({ vendor: browser });
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const [vendor] = await server.db.query<{ id: string; name: string }>(
      'SELECT id::text, name FROM vendors v WHERE business_id = $1 AND NOT deleted AND NOT EXISTS (SELECT 1 FROM network_vendor_links l WHERE l.vendor_id = v.id) ORDER BY name LIMIT 1', [server.businessId]);
    await admin.call(inviteNetworkVendor, { params: { payee_uuid: vendor!.id }, body: { email: VENDOR_EMAIL } });

    const { page } = browser;
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
    expect(await axeFindings(page)).toEqual([]);

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
    expect(await axeFindings(page)).toEqual([]);

    await page.setViewportSize({ width: 360, height: 800 });
    for (const path of ['/vendor-portal', '/vendor-portal/profile', '/vendor-portal/payers', '/vendor-portal/changes']) {
      await page.goto(path);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    }

    // The payer's side: the vendor drawer's Vendor network section shows the vendor joined, its verified details and its pending change.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/sign-in/, { timeout: 30_000 });
    await signIn(page, ADMIN, PASSWORD);
    await page.goto(`/vendors?open=${vendor!.id}`);
    const section = page.getByRole('region', { name: 'Vendor network' });
    await expect.poll(() => section.getByText('Joined').count(), { timeout: 60_000 }).toBe(1);
    // The payer had no tax ID: filled and verified by the vendor; it already held a bank account: the new one waits as a change to accept.
    await expect.poll(() => section.getByText('Tax ID: Verified by vendor').count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => section.getByText(/Bank account: checking ending 5678/).count(), { timeout: 60_000 }).toBeGreaterThan(0);
  }, 150_000);
});
