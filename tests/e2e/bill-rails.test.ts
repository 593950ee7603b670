/**
 * Issue 30, end to end: paying a bill by check and by wire from the bill drawer, on real parts only
 * (the built PWA served by the real server, PGlite, headless Chromium). Pacific Precision Machining
 * (seeded with a verified bank account and a US address) can take every rail: the pay confirmation
 * asks "Pay by", each choice saying when it arrives and what it costs; the confirmation's words and
 * button follow the choice. Paid by check, the payments section names the check number and "View
 * check" opens its front and back; paid by wire, it offers "Download MT103". The server holds one
 * attempt per bill on the chosen rail. axe finds nothing serious with the dialogs open.
 */
import { describe, expect, it } from 'vitest';
import { approveApproval } from '../../schema/api/calls-approvals.ts';
import { createBill } from '../../schema/api/calls-bills.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signInAndOpen } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const OWNER = 'owner@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';

useServerAndBrowser({ transactions: 20 });

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function approvedBills(): Promise<string[]> {
  const [vendor] = await server.db.query<{ id: string }>(`SELECT id::text FROM vendors WHERE business_id = $1 AND name = $2`, [server.businessId, VENDOR]);
  const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
  const owner = await apiSignIn(server.url, OWNER, PASSWORD);
  const ids: string[] = [];
  for (const [n, amount] of [[1, 120_000], [2, 45_050]] as const) {
    const bill = await admin.call(createBill, { body: {
      vendor_id: vendor!.id, invoice_number: `INV-RAIL-${n}`, invoice_date: day(-10), due_date: day(20), currency: 'USD',
      line_items: [{ description: `Fixtures, lot ${n}`, amount }], submit: true,
    } });
    const [approval] = await server.db.query<{ id: string }>(`SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [bill.id]);
    await owner.call(approveApproval, { params: { approval_id: approval!.id }, body: {} });
    ids.push(bill.id);
  }
  return ids;
}

describe('bill payment rails, end to end', () => {
  it('pays one bill by mailed check and one by wire from the drawer, then shows the check and the MT103', async () => {
    printBrowserLogsOnFailure({ browser });
    const ids = await approvedBills();
    const { page } = browser;
    await signInAndOpen(page, ADMIN, PASSWORD, 'Bills');
    const grid = page.getByRole('grid', { name: 'Bills' });
    const row = (invoice: string) => grid.getByRole('row').filter({ hasText: invoice });

    // By check: the choice, the words, the button.
    await row('INV-RAIL-1').getByRole('gridcell').nth(2).click();
    const drawer = page.getByRole('dialog', { name: `${VENDOR} · INV-RAIL-1` });
    await drawer.getByRole('button', { name: 'Pay now' }).click();
    const confirm = page.getByRole('dialog', { name: `Pay $1,200.00 to ${VENDOR}?` });
    const payBy = confirm.getByRole('group', { name: 'Pay by' });
    expect(await payBy.getByRole('radio', { name: /^Bank transfer \(ACH\) · arrives / }).isChecked()).toBe(true);
    await payBy.getByRole('radio', { name: 'Wire · same day · $15.00 fee' }).waitFor();
    await payBy.getByRole('radio', { name: /^Mailed check · arrives / }).check();
    await confirm.getByText(/is printed and mailed today, once/).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Mail a check for $1,200.00' }).click();
    await confirm.waitFor({ state: 'detached' });
    const [check] = await server.db.query<{ rail: string; check_number: number }>('SELECT rail, check_number FROM bill_payments WHERE bill_id = $1', [ids[0]]);
    expect(check).toMatchObject({ rail: 'CHECK', check_number: 1001 });
    await drawer.getByText(/Check #1001/).waitFor({ timeout: 30_000 });
    await drawer.getByRole('button', { name: 'View check #1001' }).click();
    const images = page.getByRole('dialog', { name: 'Check #1001' });
    await images.getByRole('img', { name: 'Front of check #1001' }).waitFor();
    await images.getByRole('img', { name: 'Back of check #1001' }).waitFor();
    expect(await images.getByRole('img', { name: 'Front of check #1001' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await axeFindings(page)).toEqual([]);
    await images.getByRole('button', { name: 'Close' }).click();
    await drawer.getByRole('button', { name: 'Close details' }).click();

    // By wire.
    await row('INV-RAIL-2').getByRole('gridcell').nth(2).click();
    const second = page.getByRole('dialog', { name: `${VENDOR} · INV-RAIL-2` });
    await second.getByRole('button', { name: 'Pay now' }).click();
    const wire = page.getByRole('dialog', { name: `Pay $450.50 to ${VENDOR}?` });
    await wire.getByRole('radio', { name: 'Wire · same day · $15.00 fee' }).check();
    await wire.getByText(/The wire fee of \$15\.00 is taken from your operating account/).waitFor();
    await wire.getByRole('button', { name: 'Wire $450.50 (+ $15.00 fee)' }).click();
    await wire.waitFor({ state: 'detached' });
    await second.getByText('Wire ($15.00 fee)', { exact: false }).waitFor({ timeout: 30_000 });
    await second.getByRole('button', { name: 'Download MT103' }).waitFor();
    const [wired] = await server.db.query<{ rail: string; wire_fee: string }>('SELECT rail, wire_fee::text FROM bill_payments WHERE bill_id = $1', [ids[1]]);
    expect(wired).toMatchObject({ rail: 'WIRE', wire_fee: '1500' });
  });
});
