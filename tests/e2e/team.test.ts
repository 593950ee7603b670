/**
 * Issue 14, end to end: team administration and the links the server mails, on real parts only —
 * the built PWA (dist/) served by the real server (PGlite, dev outbox on) in headless Chromium.
 *
 * The admin opens Team → People, invites a person through the dialog, and sees them Invited. The
 * invite link is read from the dev outbox; a fresh browser opens it, sees who invited them to
 * which business, sets a password and lands signed in. The admin's list shows them Active (through
 * the change feed); the admin moves them to another department in the person drawer (stored on
 * the server). From CSV, the preview names each bad row's problem and only the good row is
 * invited. Offline, the list still reads and the drawer's actions say they need a connection. A
 * sign-in link asked for on the sign-in page signs the person in from a third
 * browser. axe finds nothing serious on the Team page and the invite page; at 360 px neither
 * scrolls sideways.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, mainNav, setNetwork, signInAndOpen, type BrowserSession } from '../support/browser.ts';
import { mailedLink } from '../support/dev-outbox.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const INVITEE = { email: 'grace.hopper@demo.test', first: 'Grace', last: 'Hopper' };
const NEW_PASSWORD = 'compilers-are-fun-1952';

let server: TestServer;
const browsers: BrowserSession[] = [];

beforeAll(async () => {
  server = await startTestServer({ transactions: 20, serveDist: true, devOutbox: true });
}, 120_000);

afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.close();
});

async function browser(): Promise<BrowserSession> {
  const b = await launchBrowser({ baseURL: server.url });
  browsers.push(b);
  return b;
}

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.waitForTimeout(150);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where}: page ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const userRow = async (email: string) =>
  (await server.db.query<{ status: string; department: string | null }>(
    `SELECT u.status, d.name AS department FROM spend_users u LEFT JOIN departments d ON d.id = u.department_id
      WHERE u.business_id = $1 AND lower(u.email) = $2 AND NOT u.deleted`,
    [server.businessId, email],
  ))[0];

describe('team administration, end to end', () => {
  it('invites a person, who accepts from the mailed link and signs in; the admin sees them Active and moves them; a sign-in link signs them in', async () => {
    const admin = await browser();
    onTestFailed(() => {
      for (const b of browsers) if (b.logs.length) console.error(`browser logs:\n${b.logs.slice(-40).join('\n')}`);
    });
    const { page } = admin;
    await signInAndOpen(page, ADMIN, PASSWORD, 'Team', 'People');
    const grid = page.getByRole('grid', { name: 'People' });
    await grid.getByRole('row').nth(2).waitFor();

    // Invite through the dialog: Engineering, as an employee.
    await page.getByRole('button', { name: 'Invite people' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite people' });
    await dialog.getByLabel('Email').fill(INVITEE.email);
    await dialog.getByLabel('First name').fill(INVITEE.first);
    await dialog.getByLabel('Last name').fill(INVITEE.last);
    await dialog.getByLabel('Department').selectOption({ label: 'Engineering' });
    await dialog.getByRole('button', { name: 'Send invite' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = grid.getByRole('row').filter({ hasText: INVITEE.email });
    await page.getByLabel('Search people').fill('hopper');
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Invited/);
    expect(await userRow(INVITEE.email)).toEqual({ status: 'INVITED', department: 'Engineering' });
    expect(await axeFindings(page)).toEqual([]);
    await noSidewaysScroll(page, 'Team page');

    // From CSV: the preview names each row's problem; only the good row is invited.
    await page.getByRole('button', { name: 'Invite people' }).click();
    await dialog.getByRole('radio', { name: 'From CSV' }).check();
    const csv = ['email,first_name,last_name,role,manager_email,department,location',
      'alan.turing@demo.test,Alan,Turing,Employee,,Engineering,',
      `${INVITEE.email},Grace,Again,,,,`,
      'katherine@demo.test,Katherine,Johnson,,,Astronautics,'].join('\n');
    await dialog.getByLabel('Choose CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const summary = dialog.getByTestId('csv-preview-summary');
    await summary.filter({ hasText: '1 person ready to invite; 2 rows have problems and will be skipped.' }).waitFor();
    await dialog.getByRole('row').filter({ hasText: 'Already a member of this business.' }).waitFor();
    await dialog.getByRole('row').filter({ hasText: 'No department is called “Astronautics”.' }).waitFor();
    await dialog.getByRole('button', { name: 'Invite 1 person' }).click();
    await summary.filter({ hasText: '1 of 1 invited.' }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await userRow('alan.turing@demo.test')).toEqual({ status: 'INVITED', department: 'Engineering' });
    expect(await userRow('katherine@demo.test')).toBeUndefined();

    // Opened in another tab of the signed-in admin, the link is not used behind their back: the
    // page says who is signed in and offers to sign out first; they carry on as themselves.
    const inviteLink = await mailedLink(server.url, INVITEE.email, /\/invites\/[A-Za-z0-9_-]+/);
    const adminTab = await admin.context.newPage();
    await adminTab.goto(inviteLink);
    await adminTab.getByText(`(${ADMIN})`, { exact: false }).waitFor({ timeout: 30_000 });
    await adminTab.getByRole('button', { name: 'Sign out and open the invite' }).waitFor();
    expect(await axeFindings(adminTab)).toEqual([]);
    await adminTab.getByRole('link', { name: /^Continue as / }).click();
    await mainNav(adminTab).waitFor({ state: 'visible', timeout: 30_000 });
    await adminTab.close();

    // The invitee opens the mailed link in a browser of their own.
    const invitee = await browser();
    const p2 = invitee.page;
    await p2.goto(inviteLink);
    await p2.getByTestId('invite-who').waitFor();
    expect(await p2.getByTestId('invite-who').textContent()).toMatch(new RegExp(`invited ${INVITEE.email} to join .+ on Ledgerline`));
    expect(await axeFindings(p2)).toEqual([]);
    await noSidewaysScroll(p2, 'invite page');
    await p2.getByLabel('Create a password').fill(NEW_PASSWORD);
    await p2.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await p2.getByRole('button', { name: 'Accept invite' }).click();
    await mainNav(p2).waitFor({ state: 'visible', timeout: 30_000 });
    expect((await userRow(INVITEE.email))?.status).toBe('ACTIVE');

    // The admin's list follows the feed: Active. Then the drawer moves them to Product.
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Active/);
    await row.click();
    const drawer = page.getByRole('dialog', { name: `${INVITEE.first} ${INVITEE.last}` });
    await drawer.getByLabel('Department').selectOption({ label: 'Product' });
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await userRow(INVITEE.email))?.department, { timeout: 30_000 }).toBe('Product');
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Product/);

    // Offline, the list still reads (the mirror) and every change says it needs a connection.
    await setNetwork(admin.context, false);
    await page.getByRole('note').filter({ hasText: 'Managing people needs a connection' }).first().waitFor();
    expect(await drawer.getByRole('button', { name: 'Suspend' }).isDisabled()).toBe(true);
    await setNetwork(admin.context, true);

    // A sign-in link, asked for on the sign-in page, signs them in from a third browser.
    const third = await browser();
    const p3 = third.page;
    await p3.goto('/sign-in');
    await p3.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await p3.getByLabel('Email').fill(INVITEE.email);
    await p3.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await p3.getByText('If that email has an account, a link is on its way.').waitFor();
    await p3.goto(await mailedLink(server.url, INVITEE.email, /\/passwordless\?token=[A-Za-z0-9_-]+/));
    await mainNav(p3).waitFor({ state: 'visible', timeout: 30_000 });
    const menu = await p3.getByRole('button', { name: new RegExp(INVITEE.first) }).count();
    expect(menu).toBeGreaterThan(0);
  });
});
