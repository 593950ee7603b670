/**
 * Issue 29, end to end (the built PWA on the real server, PGlite, headless Chromium): the demo
 * manager delegates their approvals to the demo bookkeeper (who holds COPILOT in the seed) from
 * Settings → Out of office, confirming what it does; the bookkeeper's inbox marks the manager's
 * waiting claims "for <manager>", and they approve one from its drawer. The server records it once,
 * decided by the bookkeeper on behalf of the manager, and the drawer says "by X for Y". axe finds
 * nothing serious on the settings page (with the delegation) and the approval policy page.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testing.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, mainNav, signIn, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';

const MANAGER = 'manager@demo.test';
const BOOKKEEPER = 'bookkeeper@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';

let server: TestServer;
let managerBrowser: BrowserSession;
let keeperBrowser: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer({ transactions: 50, serveDist: true });
  managerBrowser = await launchBrowser({ baseURL: server.url });
}, 120_000);

afterAll(async () => {
  await keeperBrowser?.close();
  await managerBrowser?.close();
  await server?.close();
});

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('delegation (copilot), end to end', () => {
  it('a manager delegates to the bookkeeper, who approves a claim for the manager', async () => {
    onTestFailed(() => {
      if (managerBrowser?.logs.length) console.error(`manager logs:\n${managerBrowser.logs.slice(-60).join('\n')}`);
      if (keeperBrowser?.logs.length) console.error(`bookkeeper logs:\n${keeperBrowser.logs.slice(-60).join('\n')}`);
    });
    const manager = await userByEmail(server.db, server.businessId, MANAGER);
    const keeper = await userByEmail(server.db, server.businessId, BOOKKEEPER);
    const [waiting] = await server.db.query<{ id: string; merchant: string }>(
      `SELECT a.id::text, r.merchant FROM approvals a JOIN reimbursements r ON r.id = a.object_id
        WHERE a.business_id = $1 AND a.status = 'PENDING' AND a.object_type = 'reimbursement' AND a.approver_id = $2 AND a.user_id <> $3
        ORDER BY a.created_at, a.id LIMIT 1`,
      [server.businessId, manager.id, keeper.id],
    );
    expect(waiting, 'the seed has a claim waiting for the manager').toBeTruthy();

    // The manager: Settings → Out of office, the bookkeeper until three days from now, asked first.
    const { page } = managerBrowser;
    await page.goto('/');
    await signIn(page, MANAGER, PASSWORD);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Out of office' });
    await section.getByLabel('Let this person decide my approvals').waitFor({ state: 'visible', timeout: 30_000 });
    const keeperName = keeper.name;
    await section.getByLabel('Let this person decide my approvals').selectOption({ label: keeperName });
    await section.getByLabel('Until (inclusive)').fill(inDays(3));
    await section.getByRole('button', { name: 'Delegate my approvals…' }).click();
    const confirm = page.getByRole('dialog', { name: new RegExp(`^Let ${keeperName} decide your approvals until`) });
    await confirm.waitFor({ state: 'visible' });
    expect(await confirm.textContent()).toContain(`by ${keeperName} for you`);
    await confirm.getByRole('button', { name: 'Delegate', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await section.getByText(`${keeperName} decides your approvals`).waitFor({ state: 'visible' });
    const [stored] = await server.db.query<{ delegate_id: string }>(
      'SELECT delegate_id::text FROM approval_delegations WHERE business_id = $1 AND delegator_id = $2', [server.businessId, manager.id],
    );
    expect(stored?.delegate_id).toBe(keeper.id);
    expect(await axeFindings(page)).toEqual([]);

    // The bookkeeper: the inbox marks the manager's claim "for <manager>"; they approve it from the drawer.
    keeperBrowser = await launchBrowser({ baseURL: server.url });
    const kp = keeperBrowser.page;
    await kp.goto('/');
    await signIn(kp, BOOKKEEPER, PASSWORD);
    await waitForSyncStatus(kp, 'All changes synced', 120_000);
    await mainNav(kp).getByRole('link', { name: /^Approvals/ }).click();
    await kp.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    const managerName = manager.name;
    const row = kp.getByRole('row').filter({ hasText: waiting!.merchant });
    await expect.poll(async () => (await row.first().textContent()) ?? '', { timeout: 30_000 }).toContain(`for ${managerName}`);
    await kp.goto(`/approvals?open=${waiting!.id}`);
    const drawer = kp.getByRole('dialog').filter({ hasText: waiting!.merchant });
    await drawer.getByRole('button', { name: 'Approve', exact: true }).click();
    await waitForSyncStatus(kp, 'All changes synced', 60_000);
    await expect.poll(async () => (await server.db.query<{ status: string; decided_by: string; on_behalf_of: string }>(
      'SELECT status, decided_by::text, on_behalf_of::text FROM approvals WHERE id = $1', [waiting!.id],
    ))[0], { timeout: 30_000 }).toEqual({ status: 'APPROVED', decided_by: keeper.id, on_behalf_of: manager.id });
    await kp.goto(`/approvals?tab=decided&open=${waiting!.id}`);
    await expect.poll(async () => (await kp.getByRole('dialog').filter({ hasText: waiting!.merchant }).textContent()) ?? '', { timeout: 30_000 })
      .toContain(`by ${keeperName} for ${managerName}`);

    // The admin's approval policy page: every type, groups and the simulation; axe clean.
    const admin = await launchBrowser({ baseURL: server.url });
    try {
      await admin.page.goto('/');
      await signIn(admin.page, ADMIN, PASSWORD);
      await admin.page.goto('/approvals/policy?type=reimbursement');
      await admin.page.getByRole('heading', { name: 'Reimbursement approval policy', level: 1 }).waitFor({ timeout: 30_000 });
      await admin.page.getByRole('heading', { name: 'Approval groups' }).waitFor();
      await admin.page.getByText(/Version|built-in policy/).first().waitFor({ timeout: 30_000 });
      expect(await axeFindings(admin.page)).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});
