/**
 * Issue 11, end to end: the Bills page on real parts only — the built PWA (dist/) served by the
 * real server (PGlite) in Debian's headless Chromium.
 *
 * Seeded through the API as people would: the admin (whose manager is the owner) enters four
 * bills of a demo vendor, submits three for approval and keeps one as a draft; the owner
 * approves the three through the approvals call. The admin then opens Bills, sees the status tabs
 * with their counts, opens a bill's drawer (facts, line items, the approval chain with the
 * owner's decision), selects two approved bills and marks them paid in bulk: the page words the
 * server's per-bill answer, the server holds exactly those two PAID (the third still approved),
 * and the feed brings them into the Paid tab. axe finds nothing serious on the page. Offline,
 * the direct bulk actions are disabled and the bar says why; paying the third is queued after a
 * confirmation naming vendor, invoice and amount, and sent once when back online (one payment):
 * processing (SCHEDULED, its payment PENDING) until its settlement day, then PAID when the
 * settlement job runs on that day (issue 25), and the feed brings it into the Paid tab.
 */
import { describe, expect, it } from 'vitest';
import { approveApproval } from '../../schema/api/calls-approvals.ts';
import { createBill, DEFAULT_SETTLEMENT_DAYS } from '../../schema/api/calls-bills.ts';
import { expectedSettlementDate } from '../../schema/business-days.ts';
import { settleBillPayments } from '../../server/domain/bill-settlement.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { openSection, sectionNames, setNetwork, signIn, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const OWNER = 'owner@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';

useServerAndBrowser({ transactions: 20 });

/** An ISO date `days` from today (UTC). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const statusOf = async (ids: readonly string[]): Promise<Record<string, string>> => {
  const rows = await server.db.query<{ id: string; status: string }>(`SELECT id::text, status FROM bills WHERE id = ANY($1::uuid[])`, [ids]);
  return Object.fromEntries(rows.map((r) => [r.id, r.status]));
};

/** Four bills: INV-E2E-1..3 submitted and approved by the owner (the admin's manager), INV-E2E-4 a draft. */
async function seedBills(): Promise<string[]> {
  const [vendor] = await server.db.query<{ id: string }>(`SELECT id::text FROM vendors WHERE business_id = $1 AND name = $2`, [server.businessId, VENDOR]);
  const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
  const owner = await apiSignIn(server.url, OWNER, PASSWORD);
  const ids: string[] = [];
  for (const [n, amount, due] of [[1, 120_000, -5], [2, 45_050, 10], [3, 99_900, 20], [4, 30_000, 30]] as const) {
    const bill = await admin.call(createBill, {
      body: {
        vendor_id: vendor!.id, invoice_number: `INV-E2E-${n}`, invoice_date: day(-20), due_date: day(due), currency: 'USD',
        line_items: [{ description: `Machined parts, lot ${n}`, amount }], submit: n !== 4,
      },
    });
    ids.push(bill.id);
    if (n === 4) continue;
    const [approval] = await server.db.query<{ id: string }>(`SELECT id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [bill.id]);
    await owner.call(approveApproval, { params: { approval_id: approval!.id }, body: {} });
  }
  return ids;
}

describe('bills, end to end', () => {
  it('shows tabs with counts and a bill’s drawer, and marks two approved bills paid in bulk', async () => {
    printBrowserLogsOnFailure({ browser });
    const ids = await seedBills();
    expect(Object.values(await statusOf(ids)).sort()).toEqual(['APPROVED', 'APPROVED', 'APPROVED', 'DRAFT']);

    const { page } = browser;
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    // Bills sits before Vendors in the main navigation.
    const links = await sectionNames(page);
    expect(links.indexOf('Bills')).toBeGreaterThan(-1);
    expect(links.indexOf('Bills')).toBeLessThan(links.indexOf('Vendors'));
    await openSection(page, 'Bills');
    await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();

    // The status tabs with their counts.
    await page.getByRole('tab', { name: 'All (4)' }).waitFor();
    for (const name of ['Drafts (1)', 'Awaiting approval (0)', 'Ready to pay (3)', 'Scheduled (0)', 'Paid (0)', 'Failed (0)']) {
      await page.getByRole('tab', { name }).waitFor();
    }
    const grid = page.getByRole('grid', { name: 'Bills' });
    const row = (invoice: string) => grid.getByRole('row').filter({ hasText: invoice });
    await row('INV-E2E-4').waitFor();
    // Soonest due first; the bill due five days ago says so in words.
    await row('INV-E2E-1').getByText('Overdue by 5 days').waitFor();

    await page.getByRole('tab', { name: 'Ready to pay (3)' }).click();
    await row('INV-E2E-3').waitFor();
    await row('INV-E2E-4').waitFor({ state: 'detached' });

    // A bill's drawer: amount, status, facts, line items, the chain with the owner's decision.
    await row('INV-E2E-2').getByRole('gridcell').nth(2).click();
    const drawer = page.getByRole('dialog', { name: `${VENDOR} · INV-E2E-2` });
    await drawer.waitFor();
    expect(page.url()).toContain(`open=${ids[1]}`);
    await drawer.getByText('$450.50').first().waitFor();
    await drawer.getByRole('cell', { name: 'Machined parts, lot 2' }).waitFor();
    await drawer.getByText('Step 1').waitFor();
    await drawer.getByText(/Decided by .+ on/).waitFor();
    for (const name of ['Pay now', 'Mark as paid', 'Cancel bill']) await drawer.getByRole('button', { name }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await drawer.getByRole('button', { name: 'Close details' }).click();
    await drawer.waitFor({ state: 'detached' });

    // Two approved bills selected: the bulk bar offers what their status allows.
    await row('INV-E2E-1').getByRole('checkbox').check();
    await row('INV-E2E-2').getByRole('checkbox').check();
    const bar = page.getByRole('region', { name: 'Selection' });
    await bar.getByText('2 selected').waitFor();
    expect(await bar.getByRole('button', { name: 'Mark as reconciled' }).isDisabled()).toBe(true);
    await bar.getByRole('button', { name: 'Mark as paid' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark 2 bills as paid?' });
    await confirm.getByText('$1,650.50').waitFor();
    await confirm.getByRole('button', { name: 'Mark 2 bills as paid' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 bills marked as paid.').waitFor();

    // The server holds exactly those two paid; the third approved bill and the draft are untouched.
    expect(await statusOf(ids)).toEqual({ [ids[0]!]: 'PAID', [ids[1]!]: 'PAID', [ids[2]!]: 'APPROVED', [ids[3]!]: 'DRAFT' });
    // …and the feed brings them to this device.
    await page.getByRole('tab', { name: 'Paid (2)' }).waitFor({ timeout: 60_000 });
    await page.getByRole('tab', { name: 'Ready to pay (1)' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // Offline the direct bulk actions are refused before anything is sent, and the bar says why;
    // paying is queued, only after a confirmation naming the vendor and the amount.
    await setNetwork(browser.context, false);
    await waitForSyncStatus(page, 'Offline');
    await row('INV-E2E-3').getByRole('checkbox').check();
    await bar.getByRole('note').filter({ hasText: 'payments you confirm are queued here' }).waitFor();
    expect(await bar.getByRole('button', { name: 'Mark as paid' }).isDisabled()).toBe(true);
    await bar.getByRole('button', { name: 'Pay now' }).click();
    const queue = page.getByRole('dialog', { name: 'Queue 1 bill for payment?' });
    const payment = queue.getByRole('list', { name: 'Payments' }).getByRole('listitem');
    await payment.filter({ hasText: VENDOR }).filter({ hasText: 'INV-E2E-3' }).filter({ hasText: '$999.00' }).waitFor();
    await queue.getByRole('button', { name: 'Queue $999.00' }).click();
    await page.getByTestId('bulk-outcome').getByText(/1 payment queued on this device \(\$999\.00\)/).waitFor();
    await page.getByRole('tab', { name: 'Scheduled (1)' }).waitFor();
    // Nothing left the device: the server still has it approved, with no payment.
    expect(await statusOf([ids[2]!])).toEqual({ [ids[2]!]: 'APPROVED' });

    // Back online: sent once; processing (its payment PENDING) until its settlement day.
    await setNetwork(browser.context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const sent = async () => server.db.query<{ status: string }>(`SELECT status FROM bill_payments WHERE bill_id = $1`, [ids[2]!]);
    await expect.poll(async () => (await sent()).map((p) => p.status), { timeout: 30_000 }).toEqual(['PENDING']);
    expect(await statusOf([ids[2]!])).toEqual({ [ids[2]!]: 'SCHEDULED' });
    await page.getByRole('tab', { name: 'Scheduled (1)' }).click();
    await row('INV-E2E-3').getByRole('gridcell').nth(2).click();
    const processing = page.getByRole('dialog', { name: `${VENDOR} · INV-E2E-3` }).getByTestId('bill-processing');
    await processing.filter({ hasText: /Payment processing: sent .+; it settles on .+, when the bill becomes paid/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('dialog', { name: `${VENDOR} · INV-E2E-3` }).getByRole('button', { name: 'Close details' }).click();
    // The settlement job on its settlement day: SETTLED, the bill PAID, and the feed brings it.
    const settles = expectedSettlementDate(day(0), DEFAULT_SETTLEMENT_DAYS);
    expect((await settleBillPayments(server.db, new Date(`${settles}T12:00:00Z`))).settled).toBe(1);
    expect((await sent()).map((p) => p.status)).toEqual(['SETTLED']);
    expect(await statusOf([ids[2]!])).toEqual({ [ids[2]!]: 'PAID' });
    await page.getByRole('tab', { name: 'Paid (3)' }).waitFor({ timeout: 60_000 });
  }, 240_000);
});
