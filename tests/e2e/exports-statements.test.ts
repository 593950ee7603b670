/**
 * Issue 32 (helper F), the built PWA on the real server in headless Chromium:
 * 1. The demo admin on Cards: "Columns…" beside Export CSV saves three columns in a new order on
 *    the server, the device's Export CSV then writes exactly those (read back with papaparse);
 *    "Export primary cards" (filtered to Locked… then everyone) downloads one row per person's
 *    primary card, checked against the server's cards; the Statements link opens /statements,
 *    a CSV statement job runs with its progress in the jobs tray and downloads (papaparse).
 * 2. A saved view: the admin saves the transactions list's filters as a shared view; the
 *    bookkeeper, in a second browser, finds it under "Shared with you" and opens it (the filter
 *    is applied from the URL).
 * 3. Settings → SCIM, HRIS, Billing and Statements at 360 and 390 px: axe clean (light and dark),
 *    no sideways scroll.
 */
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';

const PASSWORD = 'demo-password-1';
const openSession = useServerAndSessions({ transactions: 60 });

const csvOf = async (download: { path(): Promise<string | null> }) =>
  Papa.parse<string[]>((await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

async function signedIn(label: string, email: string): Promise<Page> {
  const session = await openSession(label);
  await session.page.goto('/sign-in');
  await signIn(session.page, email, PASSWORD);
  return session.page;
}

/** The server's answer to the admin's token (the API, never the page). */
async function api<T>(token: string, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: { 'RAMP-ID-TOKEN': token } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('exports, statements and saved views', () => {
  it('chooses export columns, exports primary cards, and downloads a statement made by a job', async () => {
    const page = await signedIn('admin', 'admin@demo.test');
    await page.goto('/cards?view=managed');
    await page.getByRole('heading', { name: 'Cards', level: 1 }).waitFor();

    // Columns…: Status, Card, Last four, in that order.
    await page.getByRole('button', { name: 'Columns…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Columns for cards exports' });
    await dialog.getByRole('checkbox', { name: 'Card', exact: true }).waitFor();
    for (const box of await dialog.getByRole('checkbox').all()) await box.uncheck();
    await expect.poll(() => dialog.getByRole('button', { name: 'Choose a column' }).isDisabled()).toBe(true);
    for (const name of ['Card', 'Last four', 'Status']) await dialog.getByRole('checkbox', { name, exact: true }).check();
    // Status is fourth (Card, Last four, Cardholder, Status): three moves up make it first.
    for (let i = 0; i < 3; i++) await dialog.getByRole('button', { name: 'Move Status up' }).click();
    await dialog.getByRole('button', { name: 'Save 3 columns' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = await csvOf(file);
    expect(rows[0]).toEqual(['Status', 'Card', 'Last four']);
    expect(rows.length).toBeGreaterThan(1);

    // Export primary cards: one row per person's primary card (the server's cards say which).
    await page.getByRole('button', { name: 'Export primary cards' }).click();
    const exp = page.getByRole('dialog', { name: 'Export primary cards' });
    expect(await axeFindings(page)).toEqual([]);
    const [primary] = await Promise.all([page.waitForEvent('download'), exp.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(primary.suggestedFilename()).toMatch(/^primary-cards-\d{4}-\d{2}-\d{2}\.csv$/);
    const table = await csvOf(primary);
    const header = table[0]!;
    expect(header).toEqual(['Cardholder', 'Email', 'Department', 'Location', 'Card', 'Last four', 'Type', 'Status', 'Limit', 'Currency', 'Interval', 'Expires', 'Card ID']);
    const { token } = await apiSignIn(server.url, 'admin@demo.test', PASSWORD);
    const cards = (await api<{ data: { id: string; is_primary: boolean; status: string; last_four: string | null; limit: { currency: string } }[] }>(token, '/v1/auth/cards?page_size=100')).data;
    const primaries = cards.filter((c) => c.is_primary && c.status !== 'TERMINATED');
    expect(table.slice(1).map((r) => r[12]).sort()).toEqual(primaries.map((c) => c.id).sort());
    for (const r of table.slice(1)) {
      const card = primaries.find((c) => c.id === r[12])!;
      expect([r[5], r[7], r[9]]).toEqual([card.last_four ?? '', card.status, card.limit.currency]);
      expect(r[8]).toMatch(/^\d+(\.\d+)?$/);
    }

    // Cards → Statements: a CSV statement job, its progress in the jobs tray, then the file.
    await page.getByRole('link', { name: 'Statements' }).click();
    await page.getByRole('heading', { name: 'Statements', level: 1 }).waitFor();
    await page.getByRole('radio', { name: 'CSV' }).check();
    await page.getByRole('button', { name: 'Generate' }).click();
    const tray = page.getByRole('region', { name: 'Background jobs' });
    await tray.waitFor();
    const job = page.getByRole('region', { name: 'Statement job' });
    await job.getByRole('button', { name: /^Download / }).waitFor({ timeout: 60_000 });
    const [statement] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /^Download / }).click()]);
    expect(statement.suggestedFilename()).toMatch(/\.csv$/);
    const lines = await csvOf(statement);
    const types = new Set(lines.slice(1).map((l) => l[0]));
    for (const type of ['statement', 'opening_balance', 'closing_balance']) expect(types).toContain(type);
    // The tray lists the same job (its title, its last progress line) and downloads the same file.
    const title = (await job.getByRole('heading', { level: 2 }).textContent())!;
    const item = tray.getByRole('listitem').filter({ hasText: title });
    await item.waitFor();
    expect(await item.getByRole('status').textContent()).not.toBe('');
    const [again] = await Promise.all([page.waitForEvent('download'), item.getByRole('button', { name: 'Download' }).click()]);
    expect(await csvOf(again)).toEqual(lines);
  }, 180_000);

  it('a shared saved view is opened by a colleague in another browser', async () => {
    const admin = await signedIn('admin (views)', 'admin@demo.test');
    await admin.goto('/transactions?missing_receipt=true');
    await admin.getByRole('button', { name: 'Views' }).click();
    await admin.getByRole('menuitem', { name: 'Save current view as…' }).click();
    const save = admin.getByRole('dialog', { name: 'Save view' });
    await save.getByLabel('Name').fill('Receipts to chase');
    await save.getByRole('checkbox', { name: /Share with/ }).check();
    await save.getByRole('button', { name: 'Save view' }).click();
    await save.waitFor({ state: 'detached' });
    await admin.getByRole('button', { name: /Receipts to chase/ }).waitFor();

    const colleague = await signedIn('bookkeeper', 'bookkeeper@demo.test');
    await colleague.goto('/transactions');
    await colleague.getByRole('button', { name: 'Views' }).click();
    const shared = colleague.getByRole('group', { name: 'Shared with you' });
    await shared.getByRole('menuitem', { name: /Receipts to chase/ }).click();
    await expect.poll(() => new URL(colleague.url()).searchParams.get('missing_receipt')).toBe('true');
    await colleague.getByRole('button', { name: /Receipts to chase/ }).waitFor();
  }, 120_000);

  it('the SCIM, HRIS, billing and statements pages at 360 and 390 px: axe clean, no sideways scroll', async () => {
    const page = await signedIn('admin (phone)', 'admin@demo.test');
    for (const [path, heading] of [
      ['/settings/integrations/scim', 'SCIM provisioning'],
      ['/settings/integrations/hris', 'HRIS'],
      ['/settings/billing', 'Billing'],
      ['/statements', 'Statements'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
      expect(await axeFindings(page, { width: 360, height: 740 }), path).toEqual([]);
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await expectNoHorizontalScroll(page, `${path} at ${width} px`);
      }
    }
  }, 120_000);
});
