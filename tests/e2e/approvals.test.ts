/**
 * Issue 9 §3–4, end to end: the approvals inbox offline and a payment, on real parts only (the
 * built PWA served by the real server on PGlite, in Debian's headless Chromium).
 *
 * The demo manager signs in and opens Approvals: the seed's pending claims of their team. Offline,
 * with the keyboard, they approve two (x, j, x, a) and reject one (r, a reason); the decisions
 * show at once with the pending-sync mark and survive an offline reload. Back online the outbox
 * drains and the server has each decided exactly once, the claims APPROVED / REJECTED. The demo
 * employee (no manager) sees no Approvals link, and the route says there is nothing to review. Then the
 * admin pays one approved claim (the confirmation names amount and payee): the server has exactly
 * one ledger entry for it and the claim is PAID.
 *
 * Issue 25, as the admin: the inbox's search ('/' focuses it, q in the URL) narrows to one
 * requester's items and to one bill by its invoice number, and clearing it restores the inbox;
 * approving that bill asks first, naming the count and the amount with its currency, and the
 * server then has it approved once; the bill approval policy page ("Bill policy") shows the
 * server's steps, adds one and saves it through the "what changes" confirmation (read back over
 * the API), with no serious axe finding at desktop and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { getApprovalPolicy } from '../../schema/api/calls-approval-policies.ts';
import { createBill, getBill } from '../../schema/api/calls-bills.ts';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { type BrowserSession, launchBrowser, mainNav, openSection, setNetwork, signIn, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { WAITING_TO_SYNC } from '../support/transactions-page.ts';

const MANAGER = 'manager@demo.test';
const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
const PASSWORD = 'demo-password-1';
const REASON = 'Please attach the receipt.';

let server: TestServer;
let browser: BrowserSession;
let adminBrowser: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer({ transactions: 50, serveDist: true });
  browser = await launchBrowser({ baseURL: server.url });
}, 120_000);

afterAll(async () => {
  await adminBrowser?.close();
  await browser?.close();
  await server?.close();
});

const grid = (page: Page, name: string): Locator => page.getByRole('grid', { name });
const dataRows = (page: Page, name: string): Locator => grid(page, name).getByRole('row').filter({ has: page.getByRole('gridcell') });
const texts = async (rows: Locator) => (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());

interface PendingClaim {
  approval_id: string;
  claim_id: string;
  merchant: string;
}

/** The server's pending approvals the manager reviews (their team's, never their own), oldest first like the inbox. */
async function pendingForManager(managerId: string): Promise<PendingClaim[]> {
  return server.db.query<PendingClaim>(
    `SELECT a.id::text AS approval_id, r.id::text AS claim_id, r.merchant
       FROM approvals a JOIN reimbursements r ON r.id = a.object_id
      WHERE a.business_id = $1 AND a.status = 'PENDING' AND a.user_id <> $2
      ORDER BY a.created_at, a.id`,
    [server.businessId, managerId],
  );
}

describe('approvals inbox offline, end to end', () => {
  it('decides offline with the keyboard, syncs each decision once, and the admin pays exactly once', async () => {
    onTestFailed(() => {
      if (browser?.logs.length) console.error(`browser logs:\n${browser.logs.slice(-60).join('\n')}`);
      if (adminBrowser?.logs.length) console.error(`admin browser logs:\n${adminBrowser.logs.slice(-60).join('\n')}`);
    });
    const manager = await userByEmail(server.db, server.businessId, MANAGER);
    const pending = await pendingForManager(manager.id);
    expect(pending.length).toBeGreaterThanOrEqual(3);

    const { page, context } = browser;
    await signInForOffline(page, MANAGER, PASSWORD);

    // A reviewer sees the link with the count of everything that waits (claims, card and spend requests),
    // then narrows the inbox to the seed's pending claims.
    const requests = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM approvals WHERE business_id = $1 AND status = 'PENDING' AND object_type IN ('card_request', 'spend_request')
          AND approver_id = $2 AND user_id <> $2`,
      [server.businessId, manager.id],
    );
    expect(requests[0]!.n, 'the seed has a card request waiting for the manager').toBeGreaterThan(0);
    const link = mainNav(page).getByRole('link', { name: /^Approvals/ });
    await expect.poll(() => link.textContent(), { timeout: 30_000 }).toContain(`${pending.length + requests[0]!.n} waiting`);
    await link.click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor({ state: 'visible' });
    await page.getByLabel('Type').selectOption({ label: 'Claims' });
    const rows = dataRows(page, 'Approvals');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(pending.length);
    const shown = await texts(rows);
    pending.forEach((p, i) => expect(shown[i]).toContain(p.merchant));

    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');

    // Keyboard only: focus the grid (the first row becomes current), x, j, x, then a.
    await grid(page, 'Approvals').focus();
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await expect.poll(() => page.getByRole('region', { name: 'Selection' }).textContent()).toContain('2 selected');
    await page.keyboard.press('a');
    const [approvedA, approvedB, rejected] = [pending[0]!, pending[1]!, pending[2]!];
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(pending.length - 2);

    // r on the current row (Home: the first left, the oldest still pending), with a reason.
    await grid(page, 'Approvals').focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: 'Reject this claim?' });
    await dialog.waitFor({ state: 'visible' });
    await dialog.getByLabel('Reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(pending.length - 3);
    await waitForSyncStatus(page, 'Offline');

    // Decided: the three decisions, each waiting to sync; still so after an offline reload.
    await page.getByRole('tab', { name: 'Decided' }).click();
    const waiting = async () => (await texts(rows)).filter((t) => t.includes(WAITING_TO_SYNC));
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(3);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await waitForSyncStatus(page, 'Offline');
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(3);
    const decided = await waiting();
    expect(decided.filter((t) => t.includes('Approved')).length).toBe(2);
    expect(decided.some((t) => t.includes(rejected.merchant) && t.includes('Rejected'))).toBe(true);

    // Online: the outbox drains; the server has each decided once, and the claims moved.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    await expect.poll(async () => (await waiting()).length, { timeout: 30_000 }).toBe(0);
    const facts = await server.db.query<{ claim_id: string; approvals: number; decided: number; status: string; claim_status: string; reason: string | null; rejection_reason: string | null }>(
      `SELECT r.id::text AS claim_id, count(a.id)::int AS approvals, count(a.decided_at)::int AS decided,
              max(a.status) AS status, r.status AS claim_status, max(a.reason) AS reason, r.rejection_reason
         FROM reimbursements r JOIN approvals a ON a.object_id = r.id
        WHERE r.id = ANY($1::uuid[]) GROUP BY r.id ORDER BY r.id`,
      [[approvedA.claim_id, approvedB.claim_id, rejected.claim_id]],
    );
    const byClaim = new Map(facts.map((f) => [f.claim_id, f]));
    for (const c of [approvedA, approvedB]) {
      expect(byClaim.get(c.claim_id)).toMatchObject({ approvals: 1, decided: 1, status: 'APPROVED', claim_status: 'APPROVED', reason: null });
    }
    expect(byClaim.get(rejected.claim_id)).toMatchObject({
      approvals: 1, decided: 1, status: 'REJECTED', claim_status: 'REJECTED', reason: REASON, rejection_reason: REASON,
    });

    // An employee who is not a manager and whom no chain names: no Approvals link, and an inbox with nothing waiting.
    adminBrowser = await launchBrowser({ baseURL: server.url });
    const admin = adminBrowser.page;
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    await admin.goto('/');
    await signIn(admin, EMPLOYEE, PASSWORD);
    await mainNav(admin).getByRole('link', { name: 'Reimbursements' }).waitFor({ state: 'visible' });
    expect(await mainNav(admin).getByRole('link', { name: /^Approvals/ }).count()).toBe(0);
    await admin.goto('/approvals');
    await admin.getByRole('heading', { name: 'Nothing waiting for you' }).waitFor({ state: 'visible', timeout: 30_000 });
    await admin.getByRole('button', { name: new RegExp(employee.name) }).click();
    await admin.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await admin.getByLabel('Email').waitFor({ state: 'visible', timeout: 30_000 });

    // The admin pays one approved claim, after the confirmation naming amount and payee.
    await signIn(admin, ADMIN, PASSWORD);
    await waitForSyncStatus(admin, 'All changes synced', 120_000);
    await openSection(admin, 'Reimbursements');
    await admin.getByRole('tab', { name: 'Approved' }).click();
    const claimRows = dataRows(admin, 'Reimbursements');
    const target = claimRows.filter({ hasText: approvedA.merchant });
    await target.first().waitFor({ state: 'visible', timeout: 30_000 });
    await target.first().click();
    const drawer = admin.getByRole('dialog', { name: approvedA.merchant });
    await drawer.getByRole('button', { name: 'Pay', exact: true }).click();
    const pay = admin.getByRole('dialog', { name: /^Pay \$[\d,.]+ to .+\?$/ });
    await pay.waitFor({ state: 'visible' });
    const payTitle = (await pay.getByRole('heading').first().textContent()) ?? '';
    const claimant = await server.db.query<{ name: string; amount: string }>(
      `SELECT trim(u.first_name || ' ' || u.last_name) AS name, r.amount::text AS amount
         FROM reimbursements r JOIN spend_users u ON u.id = r.user_id WHERE r.id = $1`,
      [approvedA.claim_id],
    );
    expect(payTitle).toContain(claimant[0]!.name);
    expect(payTitle).toContain((Number(claimant[0]!.amount) / 100).toFixed(2));
    await pay.getByRole('button', { name: /^Pay \$/ }).click();
    await pay.waitFor({ state: 'detached' });
    await waitForSyncStatus(admin, 'All changes synced', 60_000);

    await expect.poll(async () => {
      const [row] = await server.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [approvedA.claim_id]);
      return row?.status;
    }, { timeout: 30_000 }).toBe('PAID');
    const ledger = await server.db.query<{ kind: string; method: string; amount: string }>(
      `SELECT kind, method, amount::text AS amount FROM ledger_entries WHERE business_id = $1 AND reimbursement_id = $2`,
      [server.businessId, approvedA.claim_id],
    );
    expect(ledger).toEqual([{ kind: 'PAYMENT', method: 'ACH', amount: claimant[0]!.amount }]);
  }, 300_000);

  it('admin: search narrows the inbox, approving a bill confirms with its amount, the bill policy page saves a step', async () => {
    onTestFailed(() => {
      if (adminBrowser?.logs.length) console.error(`admin browser logs:\n${adminBrowser.logs.slice(-60).join('\n')}`);
    });
    // The first scenario left the admin signed in with a synced mirror; sign in afresh when run alone.
    if (!adminBrowser) {
      adminBrowser = await launchBrowser({ baseURL: server.url });
      await adminBrowser.page.goto('/');
      await signIn(adminBrowser.page, ADMIN, PASSWORD);
      await waitForSyncStatus(adminBrowser.page, 'All changes synced', 120_000);
    }
    const page = adminBrowser.page;
    const admin = await userByEmail(server.db, server.businessId, ADMIN);
    const api = await apiSignIn(server.url, ADMIN, PASSWORD);

    // What waits for the admin on the server (an admin may decide any approval but their own), and the requester with the most of it.
    const waitingFor = async () => {
      const [row] = await server.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM approvals WHERE business_id = $1 AND status = 'PENDING' AND user_id <> $2`,
        [server.businessId, admin.id],
      );
      return row!.n;
    };
    // A bill in euros the AP clerk submits (the seed at this size has none waiting).
    const clerk = await apiSignIn(server.url, 'apclerk@demo.test', PASSWORD);
    const [vendor] = await server.db.query<{ id: string }>(
      'SELECT id::text FROM vendors WHERE business_id = $1 ORDER BY name, id LIMIT 1', [server.businessId],
    );
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const submitted = await clerk.call(createBill, {
      body: {
        vendor_id: vendor!.id, invoice_number: 'INV-E2E-APPR-7731', invoice_date: day(-2), due_date: day(28), currency: 'EUR',
        line_items: [{ description: 'Calibration service', amount: 1_234_567 }], submit: true,
      },
    });
    expect(submitted.status).toBe('PENDING_APPROVAL');
    const total = await waitingFor();
    const [busiest] = await server.db.query<{ name: string; n: number }>(
      `SELECT trim(u.first_name || ' ' || u.last_name) AS name, count(*)::int AS n
         FROM approvals a JOIN spend_users u ON u.id = a.user_id
        WHERE a.business_id = $1 AND a.status = 'PENDING' AND a.user_id <> $2
        GROUP BY u.id, u.first_name, u.last_name ORDER BY count(*) DESC, u.id LIMIT 1`,
      [server.businessId, admin.id],
    );
    const [bill] = await server.db.query<{ approval_id: string; bill_id: string; invoice_number: string; amount: string; currency: string; vendor: string }>(
      `SELECT a.id::text AS approval_id, b.id::text AS bill_id, b.invoice_number, b.amount::text AS amount, b.currency, v.name AS vendor
         FROM approvals a JOIN bills b ON b.id = a.object_id JOIN vendors v ON v.id = b.vendor_id
        WHERE a.business_id = $1 AND a.status = 'PENDING' AND a.object_type = 'bill' AND a.user_id <> $2
        ORDER BY b.amount DESC, b.id LIMIT 1`,
      [server.businessId, admin.id],
    );
    expect(busiest, 'something waits for the admin').toBeDefined();
    expect(bill, 'the submitted bill waits (the largest)').toMatchObject({ bill_id: submitted.id, amount: '1234567', currency: 'EUR' });
    const { name: requester, n: requesterCount } = busiest!;
    expect(requesterCount).toBeLessThan(total);

    await mainNav(page).getByRole('link', { name: /^Approvals/ }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor({ state: 'visible' });
    const bar = page.getByRole('region', { name: 'Selection' });
    const count = async () => ((await bar.locator('strong').textContent()) ?? '').trim();
    const rows = dataRows(page, 'Approvals');
    await expect.poll(count, { timeout: 30_000 }).toBe(`${total} waiting`);

    // '/' focuses the search; a requester's name narrows the tab to their items (q in the URL).
    const search = page.getByLabel('Search approvals');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(requester);
    await expect.poll(count, { timeout: 30_000 }).toBe(`${requesterCount} waiting match`);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(requester);
    const narrowed = await texts(rows);
    expect(narrowed.length).toBeGreaterThan(0);
    for (const t of narrowed) expect(t).toContain(requester);

    // Clearing restores the whole inbox.
    await search.fill('');
    await expect.poll(count, { timeout: 30_000 }).toBe(`${total} waiting`);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBeNull();

    // A bill by its invoice number: exactly one row; approving it asks first, with the amount and currency.
    await search.fill(bill!.invoice_number);
    await expect.poll(count, { timeout: 30_000 }).toBe('1 waiting match');
    await expect.poll(() => rows.count()).toBe(1);
    expect((await texts(rows))[0]).toContain(`Invoice ${bill!.invoice_number}`);
    await bar.getByRole('button', { name: 'Select all' }).click();
    await bar.getByText('1 selected').waitFor();
    await bar.getByRole('button', { name: 'Approve', exact: true }).click();
    const shownAmount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(bill!.amount) / 100);
    const confirm = page.getByRole('dialog', { name: /^Approve 1 bill · / });
    await confirm.waitFor({ state: 'visible' });
    const title = ((await confirm.getByRole('heading').first().textContent()) ?? '').trim();
    expect(title).toMatch(new RegExp(`^Approve 1 bill · \\D*${shownAmount.replace(/[.,]/g, '\\$&')} ${bill!.currency}$`));
    expect(await search.inputValue(), 'the dialog does not eat the search').toBe(bill!.invoice_number);
    await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(count, { timeout: 30_000 }).toBe('0 waiting match');
    await waitForSyncStatus(page, 'All changes synced', 60_000);

    // The server: the bill approved (the default chain has one step), its approval decided once.
    await expect.poll(async () => (await api.call(getBill, { params: { bill_uuid: bill!.bill_id } })).status, { timeout: 30_000 }).toBe('APPROVED');
    const decisions = await server.db.query<{ status: string; decided_by: string | null }>(
      `SELECT status, decided_by::text AS decided_by FROM approvals WHERE object_id = $1 AND decided_at IS NOT NULL`,
      [bill!.bill_id],
    );
    expect(decisions).toEqual([{ status: 'APPROVED', decided_by: admin.id }]);
    expect(await waitingFor()).toBe(total - 1);

    // The bill approval policy: the server's steps, one added and saved through the confirmation.
    // Left right after clearing the search (its URL write still waiting): the page must not be pulled back.
    const before = await api.call(getApprovalPolicy, { params: { object_type: 'bill' } });
    expect(before.steps.length).toBeGreaterThan(0);
    await search.fill('');
    await expect.poll(count, { timeout: 30_000 }).toBe(`${total - 1} waiting`);
    await page.getByRole('link', { name: 'Bill policy' }).click();
    await page.getByRole('heading', { name: 'Bill approval policy', level: 1 }).waitFor({ state: 'visible' });
    const chain = page.getByRole('list', { name: 'Approval chain' });
    const stepTitles = chain.getByRole('heading', { level: 2 });
    await expect.poll(() => stepTitles.allTextContents(), { timeout: 30_000 }).toEqual(before.steps.map((_, i) => `Step ${i + 1}`));
    if (before.is_default) await page.getByText('The built-in policy', { exact: false }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    const added = before.steps.length + 1;
    await page.getByRole('button', { name: 'Add step' }).click();
    await expect.poll(() => stepTitles.count()).toBe(added);
    await page.getByLabel(`Approver (step ${added})`).selectOption({ label: 'Anyone with a role' });
    await page.getByLabel(`Amount at or above (step ${added})`).fill('5000.00');
    await page.getByRole('button', { name: 'Save policy…' }).click();
    const save = page.getByRole('dialog', { name: 'Save the bill approval policy?' });
    await save.waitFor({ state: 'visible' });
    const changes = (await save.getByRole('list', { name: 'Changes' }).getByRole('listitem').allTextContents()).map((t) => t.trim());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatch(new RegExp(`^Add step ${added}: `));
    expect(changes[0]).toContain('5,000.00');
    await save.getByRole('button', { name: 'Save policy', exact: true }).click();
    await save.waitFor({ state: 'detached' });

    const after = await api.call(getApprovalPolicy, { params: { object_type: 'bill' } });
    expect(after.is_default).toBe(false);
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.updated_by).toBe(admin.id);
    expect(after.steps.map((s) => ({ condition: s.condition, approvers: s.approvers })).slice(0, -1))
      .toEqual(before.steps.map((s) => ({ condition: s.condition, approvers: s.approvers })));
    expect(after.steps.at(-1)).toMatchObject({
      approvers: { kind: 'role', role: 'BUSINESS_ADMIN' },
      condition: { min_amount: { amount: 500_000, currency: 'USD' } },
    });
    // The page now shows the saved version, nothing left to save.
    await page.getByText(new RegExp(`^Version ${after.version}, saved .+ by ${admin.name}\\.$`)).waitFor();
    expect(await page.getByRole('button', { name: 'Save policy…' }).isDisabled()).toBe(true);
  }, 240_000);
});
