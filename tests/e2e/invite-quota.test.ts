/**
 * Issue 24, end to end: an invite refused by the quota shows the server's own words. The real
 * server (PGlite) runs with a quota of 2 invites per inviter per hour; the admin invites one person
 * through the dialog, then three from a CSV file: the first goes, the second meets the quota and
 * its row and the dialog say exactly what the server said (how many, when to try again), and the
 * third is not sent. One more invite from the dialog is refused with the same words.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { launchBrowser, signInAndOpen, type BrowserSession } from '../support/browser.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
/** The server's words for the inviter's hourly quota of 2, all sent within the last minutes. */
const QUOTA_WORDS = /^You have sent 2 invites in the last hour; try again in (59|60) minutes\.$/;

let server: TestServer;
let browser: BrowserSession | null = null;

beforeAll(async () => {
  server = await startTestServer({ transactions: 20, serveDist: true, quotas: { invitesPerInviterPerHour: 2 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const invited = async (email: string) =>
  (await server.db.query('SELECT 1 FROM spend_users WHERE business_id = $1 AND lower(email) = $2', [server.businessId, email])).length > 0;

describe('invite quota, end to end', () => {
  it('shows the server’s words when an invite meets the quota, in the CSV rows and the dialog', async () => {
    browser = await launchBrowser({ baseURL: server.url });
    onTestFailed(() => {
      if (browser?.logs.length) console.error(`browser logs:\n${browser.logs.slice(-40).join('\n')}`);
    });
    const { page } = browser;
    await signInAndOpen(page, ADMIN, PASSWORD, 'Team', 'People');

    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    // The page header's button (the list's empty state may show its own for a moment while the people load).
    const invite = page.getByRole('button', { name: 'Invite people' }).first();
    const inviteOne = async (email: string, first: string) => {
      await invite.click();
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('First name').fill(first);
      await dialog.getByLabel('Last name').fill('Quota');
      await dialog.getByRole('button', { name: 'Send invite' }).click();
    };
    await inviteOne('ada.quota@demo.test', 'Ada');
    await dialog.waitFor({ state: 'detached' });

    await invite.click();
    await dialog.getByRole('radio', { name: 'From CSV' }).check();
    const csv = ['email,first_name,last_name', 'alan.quota@demo.test,Alan,Quota', 'grace.quota@demo.test,Grace,Quota', 'edsger.quota@demo.test,Edsger,Quota'].join('\n');
    await dialog.getByLabel('Choose CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Invite 3 people' }).click();
    await dialog.getByTestId('csv-preview-summary').filter({ hasText: '1 of 3 invited.' }).waitFor({ timeout: 30_000 });
    // Each row's result, its last cell.
    const result = async (email: string) => (await dialog.getByRole('row').filter({ hasText: email }).getByRole('cell').last().textContent()) ?? '';
    expect(await result('alan.quota@demo.test')).toBe('Invited');
    expect(await result('grace.quota@demo.test')).toMatch(QUOTA_WORDS);
    expect(await result('edsger.quota@demo.test')).toBe('Not sent: invite limit reached.');
    // The dialog says it once more, above the actions.
    await dialog.getByRole('alert').filter({ hasText: QUOTA_WORDS }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect([await invited('alan.quota@demo.test'), await invited('grace.quota@demo.test'), await invited('edsger.quota@demo.test')]).toEqual([true, false, false]);

    // One person through the form: refused with the same words, and the form keeps what was typed.
    await inviteOne('barbara.quota@demo.test', 'Barbara');
    await dialog.getByRole('alert').filter({ hasText: QUOTA_WORDS }).waitFor({ timeout: 30_000 });
    expect(await dialog.getByLabel('Email').inputValue()).toBe('barbara.quota@demo.test');
    expect(await invited('barbara.quota@demo.test')).toBe(false);
  });
});
