/**
 * Issue 11 §7 bill pay extras, end to end on real parts only: the built PWA (dist/) served by the
 * real server (PGlite) in Debian's headless Chromium.
 *
 * One deep scenario, as the admin (a bill pay manager): records a vendor credit and saves a bill
 * template on their pages (each page first says what it is for), uses the template on the Bills
 * page, applies the credit in the bill form (the total nets it) and saves the bill; the server's
 * bill carries the credit line and the netted amount, and the credit shows as used up. Deleting
 * the applied credit is refused in the server's words. Then a recurring bill is set up (the form
 * previews its first bill) and paused, and the server holds it paused. axe finds nothing serious.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { listRecurringBills, listVendorCredits } from '../../schema/api/calls-bill-extras.ts';
import { listBills } from '../../schema/api/calls-bills.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signInAndOpen } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'Pacific Precision Machining';

useServerAndBrowser({ transactions: 20 });

/** The first day of next month (UTC), ISO. */
function firstOfNextMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

describe('bill pay extras, end to end', () => {
  it('records a credit and a template, bills from the template with the credit applied, and pauses and edits a recurring bill', async () => {
    printBrowserLogsOnFailure({ browser });
    const [vendor] = await server.db.query<{ id: string }>(`SELECT id::text FROM vendors WHERE business_id = $1 AND name = $2`, [server.businessId, VENDOR]);
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    const { page } = browser;
    await signInAndOpen(page, ADMIN, PASSWORD, 'Bills');
    const subnav = page.getByRole('navigation', { name: 'Bill pay' });
    const chooseVendor = async (dialog: Locator) => {
      await dialog.getByRole('combobox', { name: 'Vendor', exact: true }).click();
      await dialog.getByRole('option', { name: VENDOR }).click();
    };

    // Vendor credits: empty at first, saying what a credit is for; one recorded through the dialog.
    await subnav.getByRole('link', { name: 'Vendor credits' }).click();
    await page.getByRole('heading', { name: 'Vendor credits', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No vendor credits yet' }).waitFor();
    await page.getByRole('button', { name: 'New credit' }).first().click();
    const creditForm = page.getByRole('dialog', { name: 'New vendor credit' });
    await chooseVendor(creditForm);
    await creditForm.getByLabel('Credit note number').fill('CN-E2E-1');
    await creditForm.getByLabel('Amount', { exact: true }).fill('75.00');
    await creditForm.getByRole('button', { name: 'Record credit' }).click();
    await creditForm.waitFor({ state: 'detached' });
    const creditRow = page.getByRole('grid', { name: 'Vendor credits' }).getByRole('row').filter({ hasText: 'CN-E2E-1' });
    await creditRow.getByText('$75.00').first().waitFor();
    // Above the list, by vendor: what its credits still hold.
    await page.getByTestId('credit-vendor').filter({ hasText: VENDOR }).getByText('$75.00 remaining').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // Templates: one saved with a line.
    await subnav.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('heading', { name: 'No bill templates yet' }).waitFor();
    await page.getByRole('button', { name: 'New template' }).first().click();
    const templateForm = page.getByRole('dialog', { name: 'New bill template' });
    await templateForm.getByLabel('Template name').fill('Spindle service');
    await chooseVendor(templateForm);
    await templateForm.getByLabel('Line 1 Description').fill('Quarterly spindle service');
    await templateForm.getByLabel('Line 1 Amount').fill('400.00');
    await templateForm.getByRole('button', { name: 'Save template' }).click();
    await templateForm.waitFor({ state: 'detached' });
    const templateRow = page.getByRole('grid', { name: 'Bill templates' }).getByRole('row').filter({ hasText: 'Spindle service' });
    await templateRow.getByText('$400.00').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // "Use template": the new-bill form on the Bills page, filled from it.
    await templateRow.getByRole('link', { name: /Use template/ }).click();
    const billForm = page.getByRole('dialog', { name: 'New bill' });
    await billForm.waitFor();
    await expect.poll(() => billForm.getByLabel('Line 1 Description').inputValue(), { timeout: 30_000 }).toBe('Quarterly spindle service');
    expect(await billForm.getByRole('combobox', { name: 'Vendor', exact: true }).inputValue()).toBe(VENDOR);
    expect(page.url()).not.toContain('template=');
    await billForm.getByLabel('Invoice number').fill('INV-TPL-1');
    // The vendor's credit is offered with what remains of it; applied, the total nets it.
    await billForm.getByRole('button', { name: 'Apply credit CN-E2E-1 — $75.00 available' }).click();
    await expect.poll(() => billForm.getByTestId('bill-total').textContent(), { timeout: 30_000 }).toContain('$325.00');
    expect(await billForm.getByLabel('Vendor credit CN-E2E-1 Taken off').inputValue()).toBe('75.00');
    await billForm.getByRole('button', { name: 'Save draft' }).click();
    await billForm.waitFor({ state: 'detached' });

    // The server's bill: the template's line and the credit line, its amount netted.
    const findBill = async () => {
      const { data } = await admin.call(listBills, { query: { vendor_id: vendor!.id, page_size: '200' } });
      return data.find((b) => b.invoice_number === 'INV-TPL-1');
    };
    await expect.poll(findBill, { timeout: 30_000 }).toBeDefined();
    const bill = (await findBill())!;
    expect(bill.amount).toBe(32_500);
    const credits = await admin.call(listVendorCredits, { query: { vendor_id: vendor!.id } });
    const credit = credits.data.find((c) => c.credit_note_number === 'CN-E2E-1')!;
    expect(bill.line_items.map((l) => [l.description, l.amount, l.vendor_credit_id])).toEqual([
      ['Quarterly spindle service', 40_000, null],
      ['Vendor credit CN-E2E-1', -7_500, credit.id],
    ]);
    expect(credit).toMatchObject({ applied: 7_500, remaining: 0 });

    // Back on Vendor credits: used up; deleting it is refused in the server's words.
    await page.goto('/bills/credits');
    await creditRow.getByText('Used up').waitFor();
    await creditRow.getByRole('button', { name: 'Delete credit CN-E2E-1' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete credit CN-E2E-1?' });
    await confirm.getByRole('button', { name: 'Delete credit' }).click();
    await confirm.getByRole('alert').getByText('$75.00 of this credit is applied to bills', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Keep as is' }).click();
    await confirm.waitFor({ state: 'detached' });

    // Recurring: set up monthly from the first of next month (the first bill previewed), then paused.
    await subnav.getByRole('link', { name: 'Recurring' }).click();
    await page.getByRole('heading', { name: 'No recurring bills yet' }).waitFor();
    await page.getByRole('button', { name: 'New recurring bill' }).first().click();
    const recurringForm = page.getByRole('dialog', { name: 'New recurring bill' });
    await chooseVendor(recurringForm);
    await recurringForm.getByLabel('Line 1 Description').fill('Machine lease');
    await recurringForm.getByLabel('Line 1 Amount').fill('1,200.00');
    const start = firstOfNextMonth();
    await recurringForm.getByLabel('Starts').fill(start);
    await recurringForm.getByLabel('Invoice number pattern').fill('LEASE-{YYYY}-{MM}');
    await recurringForm.getByTestId('recurring-preview').getByText(`LEASE-${start.slice(0, 4)}-${start.slice(5, 7)}`).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await recurringForm.getByRole('button', { name: 'Set up recurring bill' }).click();
    await recurringForm.waitFor({ state: 'detached' });
    const recurringRow = page.getByRole('grid', { name: 'Recurring bills' }).getByRole('row').filter({ hasText: 'Machine lease' });
    await recurringRow.getByText('Monthly on the 1st').waitFor();
    await recurringRow.getByText('$1,200.00').waitFor();
    await recurringRow.getByText('Active', { exact: true }).waitFor();
    await recurringRow.getByRole('button', { name: 'Pause Machine lease' }).click();
    await recurringRow.getByText('Paused', { exact: true }).waitFor();
    await recurringRow.getByRole('button', { name: 'Resume Machine lease' }).waitFor();
    const { data: recurring } = await admin.call(listRecurringBills, { query: {} });
    expect(recurring.map((r) => [r.line_items[0]?.description, r.status, r.start_date, r.next_period_start])).toEqual([['Machine lease', 'PAUSED', start, null]]);

    // Edited: the form opens with what is stored; a new amount and a cleared end are saved as such.
    await recurringRow.getByRole('button', { name: 'Edit Machine lease' }).click();
    const editForm = page.getByRole('dialog', { name: 'Edit recurring bill' });
    expect(await editForm.getByLabel('Invoice number pattern').inputValue()).toBe('LEASE-{YYYY}-{MM}');
    await editForm.getByLabel('Line 1 Amount').fill('1,350.00');
    await editForm.getByRole('button', { name: 'Save changes' }).click();
    await editForm.waitFor({ state: 'detached' });
    await recurringRow.getByText('$1,350.00').waitFor();
    const { data: edited } = await admin.call(listRecurringBills, { query: {} });
    expect(edited.map((r) => [r.amount, r.status, r.invoice_number_pattern, r.end_date])).toEqual([[135_000, 'PAUSED', 'LEASE-{YYYY}-{MM}', null]]);
  }, 240_000);
});
