/**
 * Issue 11, end to end: the Vendors screens on real parts only — the built PWA (dist/) served by
 * the real server (PGlite) in Debian's headless Chromium.
 *
 * An admin adds a US vendor without a state and sees PAYEE_1007's message on the State field
 * (nothing reaches the server), fixes it, sets the vendor's bank account (a mistyped routing
 * number is caught by the ABA checksum first) through the "Confirm it's you" step-up, sees the
 * account masked in the list (after a reload, from the mirror), reveals the full numbers through
 * a new step-up, and uploads a CSV whose second row lacks its state: that row's error is shown by
 * row and column, and nothing is created. axe finds nothing serious on the page with the drawer.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { signInAndOpen } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const VENDOR = 'E2E Lakeside Tooling';
const PAYEE_1007 = 'State is required for US vendors.';

useServerAndBrowser({ transactions: 20 });

type StoredVendor = { state: string | null; account_last_four: string | null; routing_last_four: string | null };
const storedVendor = async (name: string): Promise<StoredVendor[]> =>
  server.db.query<StoredVendor>(
    `SELECT address->>'state' AS state, bank_account_last_four AS account_last_four, bank_routing_last_four AS routing_last_four
       FROM vendors WHERE business_id = $1 AND name = $2 AND NOT deleted`,
    [server.businessId, name],
  );

describe('vendors, end to end', () => {
  it('adds a US vendor (PAYEE_1007 first), sets and reveals its bank account through step-up, and shows a CSV row’s error', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await signInAndOpen(page, ADMIN, PASSWORD, 'Vendors');
    const grid = page.getByRole('grid', { name: 'Vendors' });
    await grid.getByRole('row').filter({ hasText: 'Pacific Precision Machining' }).waitFor();

    // A US address without a state: the catalogue's message on State, nothing sent.
    await page.getByRole('button', { name: 'Add vendor' }).click();
    const form = page.getByRole('dialog', { name: 'Add vendor' });
    await form.getByLabel('Name').fill(VENDOR);
    await form.getByLabel('Email', { exact: true }).fill('ap@lakeside.example');
    await form.getByLabel('Street address').fill('200 River Rd');
    await form.getByLabel('City').fill('Portland');
    await form.getByLabel('ZIP code').fill('97201');
    await form.getByRole('button', { name: 'Add vendor' }).click();
    await form.getByText(PAYEE_1007).waitFor();
    // (The text field's name holds its error too; the country select's options name "United States".)
    const state = form.getByRole('textbox', { name: /^State\b/ });
    expect(await state.getAttribute('aria-invalid')).toBe('true');
    expect(await storedVendor(VENDOR)).toEqual([]);

    // Fixed: created, and its drawer opens.
    await state.fill('OR');
    await form.getByRole('button', { name: 'Add vendor' }).click();
    await form.waitFor({ state: 'detached' });
    const drawer = page.getByRole('dialog', { name: VENDOR });
    await drawer.getByText('No bank account', { exact: false }).waitFor();
    expect(await storedVendor(VENDOR)).toEqual([{ state: 'OR', account_last_four: null, routing_last_four: null }]);

    // The bank account: a mistyped routing number is caught first; saving asks for the step-up.
    await drawer.getByRole('button', { name: 'Set bank account' }).click();
    const bank = page.getByRole('dialog', { name: `Set ${VENDOR}’s bank account` });
    await bank.getByLabel('Routing number').fill('121000359');
    await bank.getByLabel('Account number').fill('987654321');
    await bank.getByRole('button', { name: 'Save bank account' }).click();
    await bank.getByText('This is not a valid ABA routing number', { exact: false }).waitFor();
    await bank.getByLabel('Routing number').fill('121000358');
    await bank.getByRole('button', { name: 'Save bank account' }).click();
    const stepUp = page.getByRole('dialog', { name: "Confirm it's you" });
    await stepUp.waitFor();
    expect((await storedVendor(VENDOR))[0]?.account_last_four).toBeNull();
    await stepUp.getByLabel('Password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    await bank.waitFor({ state: 'detached', timeout: 30_000 });
    await drawer.getByTestId('masked-bank').filter({ hasText: '•••• 4321' }).waitFor();
    expect(await storedVendor(VENDOR)).toEqual([{ state: 'OR', account_last_four: '4321', routing_last_four: '0358' }]);

    // After a reload (a new worker: the step-up token is gone), the list shows it masked, from the mirror.
    await page.reload();
    await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByRole('searchbox', { name: 'Search vendors' }).fill('lakeside');
    const row = grid.getByRole('row').filter({ hasText: VENDOR });
    await row.filter({ hasText: '•••• 4321' }).waitFor({ timeout: 30_000 });
    expect(await grid.getByRole('row').count()).toBe(2);
    expect(await row.textContent()).not.toContain('987654321');

    // Reveal: the step-up again, then the full numbers, briefly.
    await row.click();
    await drawer.getByRole('button', { name: 'Reveal numbers' }).click();
    await stepUp.waitFor();
    await stepUp.getByLabel('Password').fill(PASSWORD);
    await stepUp.getByRole('button', { name: 'Confirm' }).click();
    const revealed = drawer.getByTestId('revealed-bank');
    await revealed.waitFor({ timeout: 30_000 });
    expect(await revealed.textContent()).toContain('121000358');
    expect(await revealed.textContent()).toContain('987654321');
    expect(await axeFindings(page)).toEqual([]);
    await drawer.getByRole('button', { name: 'Hide numbers' }).click();
    await drawer.getByRole('button', { name: 'Close vendor details' }).click();

    // A CSV whose second row is a US vendor without a state: that row's error, nothing created.
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload vendors' });
    const csv = [
      'name,email,address_line1,city,state,postal_code,country',
      'E2E Good Row Supply,ar@good.example,1 Main St,Austin,TX,78701,US',
      'E2E Stateless Parts,ar@stateless.example,2 Main St,Austin,,78701,US',
    ].join('\n');
    await upload.getByLabel('Choose CSV file').setInputFiles({ name: 'vendors.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByTestId('upload-outcome').filter({ hasText: '1 row has errors, so no vendors were created.' }).waitFor({ timeout: 30_000 });
    const errorRow = upload.getByRole('row').filter({ hasText: PAYEE_1007 });
    expect((await errorRow.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual(['2', 'state', PAYEE_1007]);
    expect(await storedVendor('E2E Good Row Supply')).toEqual([]);
    expect(await axeFindings(page)).toEqual([]);
  }, 240_000);
});
