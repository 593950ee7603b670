/**
 * Issue 11's scenario, end to end, on real parts only: the built PWA (dist/) served by the real
 * server (PGlite), in Debian's headless Chromium, one browser profile per person.
 *
 * Set up through the API as an admin would: the bill approval policy is two named steps (the demo
 * manager, then the demo employee: neither manages bill pay), and the vendor already has a draft
 * bill INV-2041. The AP clerk signs in, the mirror syncs, and offline they enter three bills from
 * invoice files (PDFs, attached through the New bill form and typed in): the third repeats
 * INV-2041 and the form flags it as a possible duplicate. All three are submitted, show at once
 * waiting to sync, and are still there after an offline reload (the app from the service worker).
 * Online, the outbox drains ("All changes synced") and the server holds each bill once, awaiting
 * approval with its invoice. The manager opens one in their approvals inbox (its invoice opens:
 * the server lets a chain's approvers read it) and approves the three; then the employee, whom
 * only the chain brings to Approvals, approves them. The admin selects two on Bills and pays them
 * in bulk after the confirmation: the payments call shows exactly one payment for each of the two
 * and none for the third. Sent is not paid (issue 25): the two are processing (SCHEDULED, their
 * payment PENDING) until their settlement day, and PAID once the settlement job runs on that day.
 * At 390 px, a bill whose vendor has no bank account says "Can't pay yet" and offers "Add bank
 * details" instead of Pay now; valid details saved there (after the step-up) make it payable.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { updateApprovalPolicy } from '../../schema/api/calls-approval-policies.ts';
import { approveApproval } from '../../schema/api/calls-approvals.ts';
import { createBill, DEFAULT_SETTLEMENT_DAYS, listBillPayments } from '../../schema/api/calls-bills.ts';
import { createVendor } from '../../schema/api/calls-vendors.ts';
import { expectedSettlementDate } from '../../schema/business-days.ts';
import { settleBillPayments } from '../../server/domain/bill-settlement.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { apiSignIn, type ApiClient } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { type BrowserSession, launchBrowser, openSection, setNetwork, signIn, waitForServiceWorkerControl, waitForSyncStatus } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { invoicePdf } from '../support/invoice-pdf.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';

const CLERK = 'apclerk@demo.test';
const FIRST_APPROVER = 'manager@demo.test';
const SECOND_APPROVER = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';
const EXISTING = 'INV-2041';
/** Issue 25: a vendor created without bank details. */
const UNBANKED = 'Harbor Rigging & Crane';

/** The three invoices the clerk enters: the last repeats the vendor's existing INV-2041. */
const INVOICES = [
  { number: 'INV-E2E-101', amount: '1200.00', shown: '$1,200.00', line: 'Spindle repair' },
  { number: 'INV-E2E-102', amount: '450.50', shown: '$450.50', line: 'Coolant, 4 drums' },
  { number: EXISTING, amount: '980.00', shown: '$980.00', line: 'Fixture plates' },
] as const;
const NUMBERS = INVOICES.map((i) => i.number);

const browsers: BrowserSession[] = [];
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ transactions: 20, serveDist: true });
  admin = await apiSignIn(server.url, ADMIN, PASSWORD);
}, 120_000);

afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.close();
});

/** A browser of its own for one person, signed in, their mirror complete. */
async function signedIn(email: string): Promise<Page> {
  const session = await launchBrowser({ baseURL: server.url });
  browsers.push(session);
  const { page } = session;
  await page.goto('/');
  await signIn(page, email, PASSWORD);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  return page;
}

/** An ISO date `days` from today (UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The clerk's bills on the server, by invoice number (the vendor's earlier draft excluded). */
async function clerkBills(clerkId: string) {
  return server.db.query<{ id: string; invoice_number: string; status: string; amount: string; invoice_file_id: string | null }>(
    `SELECT id::text, invoice_number, status, amount::text, invoice_file_id::text FROM bills
      WHERE business_id = $1 AND created_by = $2 AND NOT deleted ORDER BY invoice_number`,
    [server.businessId, clerkId],
  );
}

/** Pending approvals of these bills that name `approverId`. */
async function pendingFor(approverId: string, billIds: readonly string[]): Promise<number> {
  const [row] = await server.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM approvals WHERE business_id = $1 AND object_type = 'bill' AND status = 'PENDING'
        AND approver_id = $2 AND object_id = ANY($3::uuid[])`,
    [server.businessId, approverId, billIds],
  );
  return Number(row!.n);
}

const dataRows = (page: Page, grid: string): Locator =>
  page.getByRole('grid', { name: grid }).getByRole('row').filter({ has: page.getByRole('gridcell') });
const texts = async (rows: Locator) => (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

/** Opens Approvals narrowed to bills, selects every pending bill and approves them in one go. */
async function approveAllBills(page: Page, expected: number): Promise<void> {
  await openSection(page, /^Approvals/);
  await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
  await page.getByLabel('Type').selectOption({ label: 'Bills' });
  const rows = dataRows(page, 'Approvals');
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(expected);
  const shown = (await texts(rows)).join('\n');
  for (const n of NUMBERS) expect(shown).toContain(`Invoice ${n}`);
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar.getByRole('button', { name: 'Select all' }).click();
  await bar.getByText(`${expected} selected`).waitFor();
  await bar.getByRole('button', { name: `Approve ${expected}` }).click();
  // Issue 25: approving bills is confirmed first, with the amounts per currency.
  const confirm = page.getByRole('dialog');
  await confirm.getByText(new RegExp(`^Approve ${expected} bills · .+ [A-Z]{3}`)).first().waitFor();
  await confirm.getByRole('button', { name: `Approve ${expected}` }).click();
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(0);
}

describe('bill pay, end to end (issue 11)', () => {
  it('an AP clerk enters three bills offline, two approvers approve them, the admin pays two in bulk exactly once', async () => {
    onTestFailed(() => {
      for (const b of browsers) if (b.logs.length) console.error(`browser logs:\n${b.logs.slice(-40).join('\n')}`);
    });
    const [clerk, first, second] = await Promise.all(
      [CLERK, FIRST_APPROVER, SECOND_APPROVER].map((email) => userByEmail(server.db, server.businessId, email)),
    );
    const [vendor] = await server.db.query<{ id: string }>(
      'SELECT id::text FROM vendors WHERE business_id = $1 AND name = $2', [server.businessId, VENDOR],
    );
    await admin.call(updateApprovalPolicy, {
      params: { object_type: 'bill' },
      body: { steps: [
        { condition: null, approvers: { kind: 'user', user_id: first!.id } },
        { condition: null, approvers: { kind: 'user', user_id: second!.id } },
      ] },
    });
    await admin.call(createBill, {
      body: {
        vendor_id: vendor!.id, invoice_number: EXISTING, invoice_date: day(-40), due_date: day(-10), currency: 'USD',
        line_items: [{ description: 'Fixture plates', amount: 98_000 }],
      },
    });

    // The clerk, with the app installed (service worker) and the mirror complete, goes offline.
    const page = await signedIn(CLERK);
    const context = page.context();
    await waitForServiceWorkerControl(page);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await openSection(page, 'Bills');
    await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
    const rows = dataRows(page, 'Bills');
    await rows.filter({ hasText: EXISTING }).waitFor();
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');

    for (const invoice of INVOICES) {
      await page.getByRole('button', { name: 'New bill' }).click();
      const form = page.getByRole('dialog', { name: 'New bill' });
      await form.waitFor();
      const document = form.getByRole('group', { name: 'Invoice document' });
      await document.locator('input[type="file"]').setInputFiles({
        name: `${invoice.number}.pdf`, mimeType: 'application/pdf',
        buffer: invoicePdf([VENDOR, `Invoice ${invoice.number}`, invoice.line, `Total USD ${invoice.amount}`]),
      });
      // Read on this device, offline (pdf.js precached): what it read is said; the clerk then checks and types.
      await form.getByText('Filled from the invoice:', { exact: false }).waitFor();
      await document.getByRole('img', { name: `PDF ${invoice.number}.pdf` }).waitFor();
      await form.getByRole('combobox', { name: 'Vendor' }).fill('Pacific Precision');
      await form.getByRole('option', { name: VENDOR }).click();
      await form.getByLabel('Invoice number').fill(invoice.number);
      await form.getByLabel('Invoice date').fill(day(-3));
      await form.getByLabel('Due date').fill(day(20));
      await form.getByLabel('Line 1 Description').fill(invoice.line);
      await form.getByLabel('Line 1 Amount').fill(invoice.amount);
      const duplicate = form.getByRole('alert').filter({ hasText: 'Possible duplicate invoice.' });
      if (invoice.number === EXISTING) {
        // Checked against the mirror, offline: the vendor's draft with that number is named.
        await duplicate.waitFor();
        expect(await duplicate.textContent()).toContain(`Invoice ${EXISTING} · $980.00`);
      }
      await form.getByRole('button', { name: 'Submit for approval' }).click();
      if (invoice.number === EXISTING) {
        // Issue 25: a duplicate is saved only once confirmed; the question names the other bill.
        const question = page.getByRole('dialog', { name: 'Possible duplicate invoice' });
        await question.getByText(`Invoice ${EXISTING}`, { exact: false }).first().waitFor();
        await question.getByRole('button', { name: 'Create anyway' }).click();
      }
      await form.waitFor({ state: 'detached' });
      // Saved on this device: its drawer opens; closed before the next one.
      const drawer = page.getByRole('dialog', { name: `${VENDOR} · ${invoice.number}` });
      await drawer.waitFor();
      await drawer.getByRole('button', { name: 'Close details' }).click();
      await drawer.waitFor({ state: 'detached' });
    }

    // All three at once, each submitted and waiting to sync (the earlier draft is synced).
    const waiting = async () => (await texts(rows)).filter((t) => t.includes(WAITING_TO_SYNC));
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(3);
    for (const invoice of INVOICES.slice(0, 2)) {
      expect((await waiting()).some((t) => t.includes(invoice.number) && t.includes(invoice.shown))).toBe(true);
    }
    expect(await clerkBills(clerk!.id)).toEqual([]);

    // An offline reload: the app from the service worker, the bills from the mirror and the outbox.
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(3);

    // Online: the outbox drains; the server holds each bill once, awaiting approval, with its invoice file.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await clerkBills(clerk!.id)).filter((b) => b.invoice_file_id !== null).length, { timeout: 30_000 }).toBe(3);
    const stored = await clerkBills(clerk!.id);
    expect(stored.map((b) => [b.invoice_number, b.status, Number(b.amount)])).toEqual([
      [EXISTING, 'PENDING_APPROVAL', 98_000], ['INV-E2E-101', 'PENDING_APPROVAL', 120_000], ['INV-E2E-102', 'PENDING_APPROVAL', 45_050],
    ]);
    expect(new Set(stored.map((b) => b.invoice_file_id)).size).toBe(3);
    const ids = Object.fromEntries(stored.map((b) => [b.invoice_number, b.id]));
    const billIds = stored.map((b) => b.id);
    expect(await pendingFor(first!.id, billIds)).toBe(3);

    // The first approver opens one bill in their inbox: its invoice is there to open, then approves all three.
    const manager = await signedIn(FIRST_APPROVER);
    await openSection(manager, /^Approvals/);
    await manager.getByLabel('Type').selectOption({ label: 'Bills' });
    await dataRows(manager, 'Approvals').filter({ hasText: 'Invoice INV-E2E-101' }).click();
    const review = manager.getByRole('dialog').filter({ hasText: 'Invoice INV-E2E-101' });
    const invoiceDoc = review.getByRole('group', { name: 'Invoice document' });
    await invoiceDoc.getByRole('button', { name: 'Open invoice INV-E2E-101' }).click({ timeout: 30_000 });
    const opened = manager.getByRole('dialog', { name: 'Invoice INV-E2E-101', exact: true });
    await opened.getByText('A PDF: open it in a new tab.').waitFor();
    expect(await axeFindings(manager)).toEqual([]);
    await manager.keyboard.press('Escape');
    await opened.waitFor({ state: 'detached' });
    await review.getByRole('button', { name: 'Close details' }).click();
    await approveAllBills(manager, 3);
    await expect.poll(() => pendingFor(second!.id, billIds), { timeout: 30_000 }).toBe(3);
    expect(Object.values(await statusOf(billIds))).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL', 'PENDING_APPROVAL']);

    // The second approver, an employee whom only the chain brings to Approvals, approves them too.
    await approveAllBills(await signedIn(SECOND_APPROVER), 3);
    await expect.poll(async () => Object.values(await statusOf(billIds)).filter((s) => s === 'APPROVED').length, { timeout: 30_000 }).toBe(3);

    // The admin pays two of them in bulk, after the confirmation naming the total.
    const adminPage = await signedIn(ADMIN);
    await openSection(adminPage, 'Bills');
    const readyTab = adminPage.getByRole('tab', { name: 'Ready to pay (3)' });
    await readyTab.click();
    // The selection belongs to the tab's list: a row checked before the tab is current would be
    // cleared when it becomes so (the list's key changes), as on a slow machine.
    await expect.poll(() => readyTab.getAttribute('aria-selected'), { timeout: 30_000 }).toBe('true');
    const ready = dataRows(adminPage, 'Bills');
    for (const n of ['INV-E2E-101', 'INV-E2E-102']) await ready.filter({ hasText: n }).getByRole('checkbox').check();
    const bar = adminPage.getByRole('region', { name: 'Selection' });
    await bar.getByText('2 selected').waitFor();
    await bar.getByRole('button', { name: 'Pay now' }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Pay 2 bills now?' });
    await confirm.getByText('$1,650.50').first().waitFor();
    await confirm.getByRole('button', { name: 'Pay $1,650.50' }).click();
    await adminPage.getByTestId('bulk-outcome').getByText('2 bills sent for payment.').waitFor({ timeout: 30_000 });

    // The server: exactly one payment for each of the two, none for the third. Sent, not yet
    // paid: each payment PENDING until its settlement day, its bill SCHEDULED (processing).
    const payments = async (id: string) => (await admin.call(listBillPayments, { query: { bill_id: id } })).data;
    for (const n of ['INV-E2E-101', 'INV-E2E-102']) {
      expect(await payments(ids[n]!), n).toEqual([expect.objectContaining({ bill_id: ids[n], status: 'PENDING', attempt: 1 })]);
    }
    expect(await payments(ids[EXISTING]!)).toEqual([]);
    expect(await statusOf(billIds)).toEqual({ [ids['INV-E2E-101']!]: 'SCHEDULED', [ids['INV-E2E-102']!]: 'SCHEDULED', [ids[EXISTING]!]: 'APPROVED' });
    // The page says so: the bill is processing and settles on its bank day.
    await adminPage.getByRole('tab', { name: 'Scheduled (2)' }).click({ timeout: 60_000 });
    await ready.filter({ hasText: 'INV-E2E-101' }).getByRole('gridcell').nth(2).click();
    const paying = adminPage.getByRole('dialog', { name: `${VENDOR} · INV-E2E-101` });
    await paying.getByTestId('bill-processing').filter({ hasText: /Payment processing: sent .+; it settles on .+, when the bill becomes paid/ }).waitFor({ timeout: 30_000 });
    expect(await paying.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
    await paying.getByRole('button', { name: 'Close details' }).click();

    // The settlement job, run before the settlement day, leaves them processing; on that day it pays them.
    const settles = expectedSettlementDate(day(0), DEFAULT_SETTLEMENT_DAYS);
    const before = new Date(Date.parse(`${settles}T00:00:00Z`) - 1000);
    expect((await settleBillPayments(server.db, before)).settled).toBe(0);
    expect((await settleBillPayments(server.db, new Date(`${settles}T12:00:00Z`))).settled).toBe(2);
    for (const n of ['INV-E2E-101', 'INV-E2E-102']) {
      expect(await payments(ids[n]!), n).toEqual([expect.objectContaining({ bill_id: ids[n], status: 'SETTLED', attempt: 1 })]);
    }
    expect(await statusOf(billIds)).toEqual({ [ids['INV-E2E-101']!]: 'PAID', [ids['INV-E2E-102']!]: 'PAID', [ids[EXISTING]!]: 'APPROVED' });
    await adminPage.getByRole('tab', { name: 'Paid (2)' }).waitFor({ timeout: 60_000 });

    // Issue 25, at 390 px: a bill whose vendor has no bank account cannot be paid; its drawer
    // says why and offers the vendor's bank form, and valid details (after the step-up) make it payable.
    const newVendor = await admin.call(createVendor, { body: { name: UNBANKED } });
    const unbanked = await admin.call(createBill, {
      body: {
        vendor_id: newVendor.id, invoice_number: 'INV-E2E-201', invoice_date: day(-3), due_date: day(14), currency: 'USD',
        line_items: [{ description: 'Crane hire', amount: 64_000 }], submit: true,
      },
    });
    for (const email of [FIRST_APPROVER, SECOND_APPROVER]) {
      const approver = await apiSignIn(server.url, email, PASSWORD);
      const [approval] = await server.db.query<{ id: string }>(
        `SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [unbanked.id],
      );
      await approver.call(approveApproval, { params: { approval_id: approval!.id }, body: {} });
    }
    expect(await statusOf([unbanked.id])).toEqual({ [unbanked.id]: 'APPROVED' });
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await adminPage.goto(`/bills?open=${unbanked.id}`);
    const billDrawer = adminPage.getByRole('dialog', { name: `${UNBANKED} · INV-E2E-201` });
    const cannotPay = billDrawer.getByTestId('bill-cannot-pay');
    await cannotPay.getByText('Can’t pay yet.').waitFor({ timeout: 60_000 });
    expect(await cannotPay.textContent()).toContain(UNBANKED);
    expect(await billDrawer.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
    await cannotPay.getByRole('button', { name: 'Add bank details' }).click();
    const bankForm = adminPage.getByRole('dialog', { name: `Set ${UNBANKED}’s bank account` });
    const box = await bankForm.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await bankForm.getByLabel('Routing number').fill('121000358');
    await bankForm.getByLabel('Account number').fill('55501234');
    await bankForm.getByRole('button', { name: 'Save bank account' }).click();
    const stepUp = adminPage.getByRole('dialog', { name: "Confirm it's you" });
    await stepUp.getByLabel('Password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await bankForm.waitFor({ state: 'detached', timeout: 30_000 });
    const [verified] = await server.db.query<{ verified: boolean; last_four: string | null }>(
      'SELECT bank_verified_at IS NOT NULL AS verified, bank_account_last_four AS last_four FROM vendors WHERE id = $1', [newVendor.id],
    );
    expect(verified).toEqual({ verified: true, last_four: '1234' });
    // Payable now: the note is gone and Pay now is offered.
    await billDrawer.getByRole('button', { name: 'Pay now' }).waitFor({ timeout: 60_000 });
    expect(await cannotPay.count()).toBe(0);
    expect(await axeFindings(adminPage)).toEqual([]);
  }, 300_000);
});

async function statusOf(ids: readonly string[]): Promise<Record<string, string>> {
  const rows = await server.db.query<{ id: string; status: string }>('SELECT id::text, status FROM bills WHERE id = ANY($1::uuid[])', [ids]);
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
}
