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

const PASSWORD = 'demo-password-1';
const ADMIN = 'admin@demo.test';

useServerAndBrowser({ transactions: 300 });

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
