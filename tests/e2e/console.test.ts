/**
 * Issue 31, the advisor console end to end on real parts: the built PWA served by the real server
 * (PGlite, its development mailbox on) in two headless Chromium sessions.
 *
 * A new firm applies at /console/apply (the code read from the development mailbox) and lands on
 * its empty Clients page, which points to Proposals; it proposes to the demo business (the demo
 * admin's email) with Read + Code and sends it (asked first). The demo admin, on Settings →
 * Accounting firms, accepts it (asked first, saying what the firm will be able to do): the firm is
 * listed with its rights and its person, and the firm's Clients page lists the demo business with
 * its rights. axe finds nothing serious on /console, Proposals and Accounting firms (390 px and desktop).
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { mailedCode } from '../support/dev-outbox.ts';
import { signIn } from '../support/browser.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const FIRM = 'Northwind Bookkeeping';
const FIRM_EMAIL = 'rhea@northwind-books.test';

const openSession = useServerAndSessions({ transactions: 10, devOutbox: true }, 180_000);

describe('advisor console', () => {
  it('a new firm applies, proposes to the demo business, the admin accepts, the firm sees its client', async () => {
    const firm = await openSession('firm');
    const { page } = firm;

    // 1. Apply, then the mailed code.
    await page.goto('/console/apply');
    await page.getByRole('heading', { name: 'Apply for the advisor console' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Firm name').fill(FIRM);
    await page.getByLabel('First name').fill('Rhea');
    await page.getByLabel('Last name').fill('Lind');
    await page.getByLabel('Work email').fill(FIRM_EMAIL);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByLabel('Code').fill(await mailedCode(server.url, FIRM_EMAIL));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();

    // 2. The empty console points to Proposals.
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'No clients yet' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to proposals' }).click();
    await page.getByRole('heading', { name: 'Proposals', level: 1 }).waitFor();

    // 3. A proposal with Read + Code, saved as a draft, then sent (asked first).
    await page.getByRole('button', { name: 'New proposal' }).click();
    const form = page.getByRole('dialog', { name: 'New proposal' });
    await form.getByLabel('Client admin’s email').fill(ADMIN);
    await form.getByLabel('Business name').fill('Demo business');
    await form.getByRole('checkbox', { name: /^Code/ }).check();
    await form.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft — not sent').waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Send this proposal?' });
    await ask.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Sent — waiting for the client').waitFor();
    expect(await page.getByText('Rights: Read, Code').count()).toBe(1);
    expect(await axeFindings(page)).toEqual([]);

    // 4. The demo admin accepts in Settings → Accounting firms.
    const admin = await openSession('admin');
    await admin.page.goto('/sign-in');
    await signIn(admin.page, ADMIN, PASSWORD);
    await admin.page.goto('/settings/accounting-firms');
    await admin.page.getByRole('heading', { name: 'Accounting firms', level: 1 }).waitFor();
    const waiting = admin.page.getByRole('list', { name: 'Proposals waiting' }).getByRole('listitem').filter({ hasText: FIRM });
    await waiting.waitFor({ timeout: 30_000 });
    expect(await axeFindings(admin.page)).toEqual([]);
    await waiting.getByRole('button', { name: 'Accept…' }).click();
    const accept = admin.page.getByRole('dialog', { name: `Accept ${FIRM}?` });
    await expect.poll(() => accept.textContent()).toContain('will be able to see your transactions');
    await accept.getByRole('button', { name: 'Accept' }).click();
    const granted = admin.page.getByRole('list', { name: 'Firms with access' }).getByRole('listitem').filter({ hasText: FIRM });
    await granted.waitFor({ timeout: 30_000 });
    expect(await granted.textContent()).toContain('Can: Read, Code');
    expect(await granted.textContent()).toContain('Rhea Lind');

    // 5. The firm's Clients page lists the business with its rights.
    await page.goto('/console');
    const row = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('Your firm can: Read, Code');
    await row.getByRole('button', { name: /^Open / }).waitFor();
  }, 90_000);
});
