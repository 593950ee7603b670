/**
 * Issue 31, the advisor console's Team page end to end on real parts: the built PWA served by the
 * real server (PGlite, the seeded demo) in two headless Chromium sessions.
 *
 * The seeded firm admin (firm@demo.test, Ledger & Co) signs in, lands in the console and opens
 * Team: both people are listed with their role and the demo client each works on, and the firm's
 * invites section says there is none open; Firm settings names the firm, the admin's role and its
 * admins. The seeded member (firm-member@demo.test) sees the same people read-only, told that
 * admins invite and assign. axe finds nothing serious on Team and Firm settings (390 px and
 * desktop), and neither page scrolls sideways at 360 px.
 *
 * Then the admin's changes: an invite on Team mails a `/console/join#token=…` link; the invitee
 * opens it in a browser of their own, sets names and a password and lands in the console's
 * Clients. The admin creates a referral code, starts a financing application for a client (it
 * shows as Draft) and withdraws it (asked first), and uploads the firm's logo in Settings (previewed,
 * then shown in the header). axe on Team with the invite, the join page, Referrals, Applications and
 * Settings with the logo (390 px and desktop).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { mailedLink } from '../support/dev-outbox.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';

const PASSWORD = 'demo-password-1';
const CLIENT = 'Northwind Robotics, Inc.';
const INVITEE = 'nia@ledger-co.test';
/** A 1×1 PNG (the server checks the bytes, not only the type). */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const openSession = useServerAndSessions({ transactions: 5, devOutbox: true }, 180_000);

/** Signs a firm user in through the sign-in form; a firm user lands in the console's Clients. */
async function signInToConsole(page: Page, email: string) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email, { timeout: 30_000 });
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor({ timeout: 30_000 });
}

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('advisor console: team', () => {
  it('the firm admin and the member see the firm’s people, roles, the clients each works on and the firm’s settings', async () => {
    const { page } = await openSession('firm-admin');
    await signInToConsole(page, 'firm@demo.test');
    await page.getByRole('navigation', { name: 'Advisor console' }).getByRole('link', { name: 'Team' }).click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const people = page.getByRole('list', { name: 'People' }).getByRole('listitem');
    await people.first().waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Team · Ledgerline');
    const rows = await people.allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^Fran Ledger \(you\)firm@demo\.test/);
    expect(rows[0]).toContain(`Works on ${CLIENT}`);
    // Each works on a client, so the admin can unassign each (Change); only others can be removed.
    expect(rows[0]).toMatch(/AdminChange Fran Ledger$/);
    expect(rows[1]).toMatch(/^Milo Ledgerfirm-member@demo\.test/);
    expect(rows[1]).toContain(`Works on ${CLIENT}`);
    expect(rows[1]).toMatch(/MemberChange Milo Ledger$/);
    await page.getByRole('heading', { name: 'Invites', level: 2 }).waitFor();
    await page.getByText('No open invites').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await noSideways(page)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Firm settings: the firm's name, the admin's role, its admins.
    await page.getByRole('navigation', { name: 'Advisor console' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Firm settings', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your firm', level: 2, exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Firm settings · Ledgerline');
    const facts = await page.locator('dl.facts').textContent();
    expect(facts).toContain('NameLedger & Co');
    expect(facts).toContain('Your roleAdmin');
    expect(await page.getByRole('list', { name: 'Firm admins' }).textContent()).toContain('Fran Ledger (you)');
    expect(await axeFindings(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 780 });
    expect(await noSideways(page)).toBe(true);

    const member = await openSession('firm-member');
    await signInToConsole(member.page, 'firm-member@demo.test');
    await member.page.goto('/console/team');
    const memberRows = member.page.getByRole('list', { name: 'People' }).getByRole('listitem');
    await memberRows.first().waitFor({ timeout: 30_000 });
    expect((await memberRows.allTextContents())[0]).toMatch(/^Milo Ledger \(you\)/);
    await member.page.getByText('Your firm’s admins invite people and choose who works on each client.').waitFor();
    expect(await member.page.getByRole('heading', { name: 'Invites' }).count()).toBe(0);
    expect(await axeFindings(member.page)).toEqual([]);
  }, 90_000);
});

describe('advisor console: the admin’s changes', () => {
  it('invites a member who joins by the mailed link; creates a referral code; starts an application and withdraws it', async () => {
    const { page } = await openSession('firm-admin-changes');
    await signInToConsole(page, 'firm@demo.test');
    const nav = page.getByRole('navigation', { name: 'Advisor console' });
    await nav.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('button', { name: 'Invite someone' }).click({ timeout: 30_000 });
    const invite = page.getByRole('dialog', { name: 'Invite someone to Ledger & Co' });
    await invite.getByLabel('Email').fill(INVITEE);
    await invite.getByRole('button', { name: 'Send invite' }).click();
    await page.getByRole('status').filter({ hasText: `Invite sent to ${INVITEE}` }).waitFor();
    const invites = page.getByRole('list', { name: 'Invites' });
    await invites.getByText(INVITEE).waitFor();
    expect(await invites.textContent()).toContain('Invited — not joined yet');
    expect(await axeFindings(page)).toEqual([]);

    // The mailed link keeps the token in the fragment; the invitee joins in a browser of their own.
    const link = await mailedLink(server.url, INVITEE, /\/console\/join#token=[A-Za-z0-9_-]+/);
    const invitee = await openSession('invitee');
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'Join your firm on Ledgerline' }).waitFor({ timeout: 30_000 });
    expect(await axeFindings(invitee.page)).toEqual([]);
    await invitee.page.getByLabel('First name').fill('Nia');
    await invitee.page.getByLabel('Last name').fill('Advisor');
    await invitee.page.getByLabel('Password').fill('new-advisor-password-1');
    await invitee.page.getByRole('button', { name: 'Join and open the console' }).click();
    await invitee.page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor({ timeout: 30_000 });
    await invitee.page.getByText('No clients yet').waitFor({ timeout: 30_000 });

    // Referrals: a new code by its name.
    await nav.getByRole('link', { name: 'Referrals' }).click();
    await page.getByRole('heading', { name: 'Referrals', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New referral code' }).click({ timeout: 30_000 });
    await page.getByRole('dialog', { name: 'New referral code' }).getByLabel('Name').fill('Spring newsletter');
    await page.getByRole('button', { name: 'Create code' }).click();
    const codes = page.getByRole('list', { name: 'Referral codes' });
    await codes.getByRole('heading', { name: 'Spring newsletter' }).waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Referrals · Ledgerline');
    expect(await axeFindings(page)).toEqual([]);

    // Applications: one started for a client shows as a draft, then is withdrawn (asked first).
    await nav.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { name: 'Applications', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Start an application' }).click({ timeout: 30_000 });
    const start = page.getByRole('dialog', { name: 'Start an application for a client' });
    await start.getByLabel('Business name').fill('Harbor Bakery LLC');
    await start.getByLabel('Applicant’s first name').fill('Hana');
    await start.getByLabel('Applicant’s last name').fill('Baker');
    await start.getByLabel('Applicant’s email').fill('hana@harbor-bakery.test');
    await start.getByRole('button', { name: 'Start and email the applicant' }).click();
    const started = page.getByRole('list', { name: 'Applications' }).getByRole('listitem').filter({ hasText: 'Harbor Bakery LLC' });
    await started.waitFor({ timeout: 30_000 });
    await started.getByText('Draft', { exact: true }).waitFor();
    expect(await started.textContent()).toContain('applicant hana@harbor-bakery.test');
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Withdraw the application for Harbor Bakery LLC' }).click();
    await page.getByRole('dialog', { name: 'Withdraw the application for Harbor Bakery LLC?' }).getByRole('button', { name: 'Withdraw application' }).click();
    await page.getByRole('status').filter({ hasText: 'was withdrawn' }).waitFor({ timeout: 30_000 });
    await started.getByText('Withdrawn', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Withdraw the application for Harbor Bakery LLC' }).count()).toBe(0);

    // Settings: a logo chosen is previewed, then saved, and the console's header shows it.
    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Upload logo…' }).waitFor({ timeout: 30_000 });
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await page.getByRole('img', { name: 'Preview of the new logo' }).waitFor();
    await page.getByRole('button', { name: 'Save logo' }).click();
    await page.getByRole('status').filter({ hasText: 'Logo saved' }).waitFor({ timeout: 30_000 });
    await page.getByRole('banner').getByRole('img', { name: 'Ledger & Co logo' }).waitFor({ timeout: 30_000 });
    expect(await axeFindings(page)).toEqual([]);
  }, 90_000);
});
