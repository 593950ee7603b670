/**
 * Issue 26's proof field end to end: a transaction's attendees, typed in the detail drawer, go
 * through the coding command (outbox → PATCH) to the server's column, come back through the feed
 * (the doc derived from the entity's columns) and show again when the drawer reopens after a reload.
 */
import { describe, expect, it, onTestFailed } from 'vitest';
import { signIn, waitForSyncStatus } from '../support/browser.ts';
import { browser, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { COLUMNS, rowAt, waitForTotal } from '../support/transactions-page.ts';
import { countTransactions } from '../support/db-checks.ts';
import { axeFindings } from '../support/axe.ts';

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';

useServerAndBrowser({ transactions: 300 });

const splitOnServer = async (id: string) =>
  (await server.db.query<{ s: { mode: string; total: number; shares: { amount: number }[] } | null }>('SELECT attendee_split AS s FROM transactions WHERE id = $1', [id]))[0]?.s;
const attendeesOnServer = async (id: string) =>
  (await server.db.query<{ attendees: string[] }>('SELECT attendees FROM transactions WHERE id = $1', [id]))[0]?.attendees;

describe('attendees, end to end', () => {
  it('typed in the drawer, stored by the server, shown again after a reload', async () => {
    onTestFailed(() => console.error(`browser logs:\n${browser.logs.slice(-60).join('\n')}`));
    const { page } = browser;
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    await waitForTotal(page, await countTransactions(server.db, server.businessId), 120_000);
    await waitForSyncStatus(page, 'All changes synced', 120_000);

    await rowAt(page, 0).getByRole('gridcell').nth(COLUMNS.merchant).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    await drawer.getByLabel('Attendees').fill('Ana Ruiz\n bo@example.com \n\nAna Ruiz');
    await drawer.getByRole('button', { name: 'Save' }).click();
    const id = new URL(page.url()).searchParams.get('open')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // Trimmed, blanks and repeats dropped, in the order typed.
    await expect.poll(() => attendeesOnServer(id), { timeout: 60_000 }).toEqual(['Ana Ruiz', 'bo@example.com']);
    await waitForSyncStatus(page, 'All changes synced', 60_000);

    // Issue 32: the amount split over the saved attendees: custom amounts show what is left, then an even split goes through the outbox.
    const split = drawer.getByRole('group', { name: 'Split between attendees' });
    await split.getByRole('radio', { name: 'Custom amounts' }).check();
    await split.getByLabel('Amount for Ana Ruiz').fill('0.01');
    await expect.poll(() => split.locator('.attendee-split-status').textContent()).toMatch(/left to assign\.$/);
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await axeFindings(page)).toEqual([]);
    await split.getByRole('radio', { name: 'Split evenly' }).check();
    await split.getByRole('button', { name: 'Split the amount' }).click();
    await expect.poll(async () => (await splitOnServer(id))?.shares.length, { timeout: 60_000 }).toBe(2);
    const stored = (await splitOnServer(id))!;
    expect(stored.mode).toBe('even');
    expect(stored.shares[0]!.amount + stored.shares[1]!.amount).toBe(stored.total);
    await waitForSyncStatus(page, 'All changes synced', 60_000);

    await page.reload();
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    const reopened = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    await expect.poll(() => reopened.getByLabel('Attendees').inputValue(), { timeout: 60_000 }).toBe('Ana Ruiz\nbo@example.com');

    // Emptied: the list is cleared on the server.
    await reopened.getByLabel('Attendees').fill('');
    await reopened.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => attendeesOnServer(id), { timeout: 60_000 }).toEqual([]);
  });
});
