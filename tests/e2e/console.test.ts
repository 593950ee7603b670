/**
 * Issue 31, the advisor console end to end on real parts: the built PWA served by the real server
 * (PGlite, its development mailbox on) in two headless Chromium sessions.
 *
 * A new firm applies at /console/apply (the code read from the development mailbox) and lands on
 * its empty Clients page, which points to Proposals; it proposes to the demo business (the demo
 * admin's email) with Read + Code and sends it (asked first). The demo admin, on Settings →
 * Accounting firms, accepts it (asked first, saying what the firm will be able to do): the firm is
 * listed with its rights and its person, and the firm's Clients page lists the demo business with
 * its rights; its Referral section says no firm referred it. axe finds nothing serious on /console,
 * Proposals and Accounting firms (390 px and desktop).
 *
 * Then, on the same server and sessions, the firm user (Rhea, the proposal's person) opens the
 * client: the main app with its "Acting for" bar and the client's mirror. She codes a transaction
 * in its drawer (synced), which the client's admin sees in Activity as "Rhea Lind (Northwind
 * Bookkeeping)", with the firm that referred the business (her token may not read that). Her app
 * offers no Bills (the admin's does) and her token's forced pay-now of an approved bill answers
 * 403 FIRM_7003, the bill unpaid. "Back to console" returns to Clients. axe finds nothing serious
 * on Clients with a client and on the main app with the acting bar.
 */
import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { payBillsNow } from '../../schema/api/calls-bills.ts';
import { businessReferrals } from '../../schema/api/calls-external-firm-referrals.ts';
import { axeFindings } from '../support/axe.ts';
import { mailedCode } from '../support/dev-outbox.ts';
import { mainNav, sectionNames, signIn, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { server, useServerAndSessions } from '../support/e2e-app.ts';
import { callWithToken } from '../support/token-call.ts';
import { chooseCoding, grid, waitForTotal } from '../support/transactions-page.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const FIRM = 'Northwind Bookkeeping';
const FIRM_EMAIL = 'rhea@northwind-books.test';

const openSession = useServerAndSessions({ transactions: 10, bills: 30, devOutbox: true }, 180_000);

describe('advisor console', () => {
  // The two people's browsers, shared by the file's tests in order.
  let firm: BrowserSession;
  let admin: BrowserSession;

  it('a new firm applies, proposes to the demo business, the admin accepts, the firm sees its client', async () => {
    firm = await openSession('firm');
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
    admin = await openSession('admin');
    await admin.page.goto('/sign-in');
    await signIn(admin.page, ADMIN, PASSWORD);
    await admin.page.goto('/settings/accounting-firms');
    await admin.page.getByRole('heading', { name: 'Accounting firms', level: 1 }).waitFor();
    const waiting = admin.page.getByRole('list', { name: 'Proposals waiting' }).getByRole('listitem').filter({ hasText: FIRM });
    await waiting.waitFor({ timeout: 30_000 });
    await admin.page.getByRole('region', { name: 'Referral' }).getByText('No referral').waitFor();
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

  it('the firm user opens the client, codes a transaction (Activity names her with the firm), is not offered paying (FIRM_7003) and goes back', async () => {
    const { page } = firm;
    const business = await businessFacts();

    // 1. Open the client from Clients: the main app, acting for the firm, on the client's mirror.
    expect(await axeFindings(page)).toEqual([]);
    const token = openedToken(firm);
    token.catch(() => undefined); // awaited below, once the client is open
    await page.getByRole('list', { name: 'Clients' }).getByRole('button', { name: `Open ${business.name}` }).click();
    const bar = page.getByRole('region', { name: 'Acting for a firm' });
    await bar.getByText(`Acting for ${business.name} · ${FIRM}`).waitFor({ timeout: 30_000 });
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const advisor = await token;

    // 2. Codes a transaction in its drawer, as a bookkeeper would; the change syncs.
    await page.goto(`/transactions?open=${business.txn}`);
    await grid(page).waitFor({ timeout: 30_000 });
    await waitForTotal(page, business.transactions, 30_000);
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    await chooseCoding(drawer, 'GL account', business.gl.label);
    await drawer.getByRole('button', { name: 'Save' }).click();
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await server.db.query<{ gl: string | null }>(
      'SELECT gl_account_id::text AS gl FROM transactions WHERE id = $1', [business.txn]))[0]?.gl, { timeout: 30_000 }).toBe(business.gl.id);
    await bar.waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // 3. The client's admin sees the change in Activity, by the firm user named with her firm; and,
    // the business having signed up with the firm's referral code, who referred it (she may not).
    await server.db.query('UPDATE businesses SET referred_by_firm_id = (SELECT id FROM external_firms WHERE name = $2) WHERE id = $1', [server.businessId, FIRM]);
    await admin.page.goto('/settings/accounting-firms');
    await admin.page.getByRole('region', { name: 'Referral' }).getByText(`${FIRM} referred your business to Ledgerline.`).waitFor({ timeout: 30_000 });
    expect(await callWithToken(server.url, advisor, businessReferrals)).toEqual({ status: 403, code: 'FORBIDDEN_7003' });
    await admin.page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Transaction changes' });
    const change = admin.page.getByRole('table', { name: 'Activity' }).getByRole('row').filter({ hasText: `Rhea Lind (${FIRM})` });
    await change.waitFor({ timeout: 30_000 });
    expect(await change.first().textContent()).toContain('Changed a transaction');

    // 4. Paying: both see Bills (an advisor reads a client's bills); her token's pay-now for an
    // approved bill answers FIRM_7003 and the bill stays APPROVED.
    expect(await sectionNames(admin.page)).toContain('Bills');
    await mainNav(page).getByRole('link', { name: 'Transactions' }).waitFor();
    expect(await sectionNames(page)).toContain('Bills');
    expect(await callWithToken(server.url, advisor, payBillsNow, { body: { bill_ids: [business.bill.id] } })).toEqual({ status: 403, code: 'FIRM_7003' });
    const [bill] = await server.db.query<{ status: string }>('SELECT status FROM bills WHERE id = $1', [business.bill.id]);
    expect(bill?.status).toBe('APPROVED');

    // 5. Back to console: the firm's Clients again.
    await bar.getByRole('button', { name: 'Back to console' }).click();
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor({ timeout: 30_000 });
    await page.getByRole('list', { name: 'Clients' }).getByRole('button', { name: `Open ${business.name}` }).waitFor({ timeout: 30_000 });
    expect(await bar.count()).toBe(0);
  }, 90_000);
});

/** The business token `firm.clients.open` answers the browser (its data worker's request), once. */
async function openedToken(session: BrowserSession): Promise<string> {
  const opened = /\/v1\/auth\/external-firm\/clients\/[0-9a-f-]{36}\/open$/;
  return new Promise<string>((resolve, reject) => {
    void session.context.route(opened, async (route: Route) => {
      try {
        const response = await route.fetch();
        const body = (await response.json()) as { id_token?: string };
        await route.fulfill({ response });
        if (body.id_token) resolve(body.id_token);
        else reject(new Error(`firm.clients.open answered ${response.status()} without a token`));
      } catch (err) {
        reject(err as Error);
      } finally {
        await session.context.unroute(opened).catch(() => undefined);
      }
    });
  });
}

/**
 * The demo business as the steps need it: its name and number of transactions, its newest one with a GL account it
 * does not have yet, and an approved bill whose vendor can be paid (verified bank, USD).
 */
async function businessFacts() {
  const [b] = await server.db.query<{ name: string; transactions: number }>(
    'SELECT name, (SELECT count(*)::int FROM transactions WHERE business_id = $1) AS transactions FROM businesses WHERE id = $1', [server.businessId],
  );
  const [txn] = await server.db.query<{ id: string; gl: string | null }>(
    'SELECT id::text, gl_account_id::text AS gl FROM transactions WHERE business_id = $1 ORDER BY occurred_at DESC, id LIMIT 1', [server.businessId],
  );
  const [gl] = await server.db.query<{ id: string; label: string }>(
    `SELECT id::text, code || ' ' || name AS label FROM gl_accounts WHERE business_id = $1 AND id IS DISTINCT FROM $2::uuid ORDER BY code LIMIT 1`,
    [server.businessId, txn!.gl],
  );
  const [bill] = await server.db.query<{ id: string; invoice: string; vendor: string }>(
    `SELECT b.id::text, b.invoice_number AS invoice, v.name AS vendor FROM bills b JOIN vendors v ON v.id = b.vendor_id
      WHERE b.business_id = $1 AND b.status = 'APPROVED' AND b.currency = 'USD' AND v.bank_verified_at IS NOT NULL
      ORDER BY b.id LIMIT 1`,
    [server.businessId],
  );
  if (!txn || !gl || !bill) throw new Error('the seed has no transaction, other GL account or approved payable bill');
  return { name: b!.name, transactions: b!.transactions, txn: txn.id, gl, bill };
}
