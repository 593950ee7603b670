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
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { useServerAndSessions } from '../support/e2e-app.ts';

const PASSWORD = 'demo-password-1';
const CLIENT = 'Northwind Robotics, Inc.';

const openSession = useServerAndSessions({ transactions: 5 }, 180_000);

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
    expect(rows[0]).toMatch(/Admin$/);
    expect(rows[1]).toMatch(/^Milo Ledgerfirm-member@demo\.test/);
    expect(rows[1]).toContain(`Works on ${CLIENT}`);
    expect(rows[1]).toMatch(/Member$/);
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
