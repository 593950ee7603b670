/**
 * Issue 29's end-to-end scenario, in one story on real parts only: the built PWA served by the real
 * server (PGlite) in headless Chromium, the server never mocked.
 *
 * The admin (desktop) sets "receipt required from 75 USD" (and a memo above 75 USD) on /policies:
 * the form starts at 75.00, a cap per charge above the cap per day shows its contradiction before
 * saving; with the editor open the owner renames the policy, and saving says who changed what and
 * saves nothing (If-Match), saving again keeps mine; Compliance lists the employee (a 100 USD charge
 * through cards.simulate) and one reminder is confirmed, then mailed once. Then the workflow
 * "auto-approve claims under 25 USD" on /workflows (the seed's three paused ones listed, off). The
 * employee's 20 USD claim is approved at once (the create's answer says APPROVED), a 30 USD one
 * waits for the manager; the execution log (no sideways scroll at 360 px) and the list show the run.
 * The charge appears in the employee's missing-items wizard, read from the mirror on a 360 px touch
 * phone; offline they add the receipt photo and the memo, and it leaves the list at once. Online
 * the two changes sync once (memo stored, one receipt, the server's missing-items no longer lists
 * it) and the list never counts it again. The manager delegates to the bookkeeper (Settings → Out
 * of office), who approves the 30 USD claim "for" the manager (server: on_behalf_of). axe finds
 * nothing serious on each screen. (The workflow editor's own checks: e2e/workflows.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOutOfPocket } from '../../schema/api/calls-reimbursements.ts';
import { listExpensePolicies, updateExpensePolicy } from '../../schema/api/calls-expense-policies.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { type BrowserSession, launchBrowser, openSection, pollPage, setNetwork, signIn, signInForOffline, waitForSyncStatus } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import {
  chargeCard, createPolicy, createWorkflow, DEMO_PASSWORD as PASSWORD, deleteSeededPolicies, openNewPolicy, openWorkflows, receiptPng, SEEDED_WORKFLOWS, serverMissing, startAutoApproveWorkflow,
} from '../support/policies-workflows.ts';

const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
const MANAGER = 'manager@demo.test';
const BOOKKEEPER = 'bookkeeper@demo.test';
const OWNER = 'owner@demo.test';
const POLICY = 'E2E receipts from 75 USD';
const RENAMED = 'E2E receipts from 75 USD (kept)';
const WORKFLOW = 'Auto-approve claims under 25 USD';
const MERCHANT = 'E2E Policy Paper Co';
const MEMO = 'Printer paper for the office';
const PHONE = { width: 360, height: 740 };

useServerAndBrowser({ transactions: 30 }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

const claimStatus = async (id: string) =>
  (await server.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [id]))[0]?.status;
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const wizardTitle = (page: Page) => page.locator('#wizard-item-title').textContent();
const remaining = (page: Page) => page.locator('.missing-items').getAttribute('data-remaining').then(Number);

/**
 * Two admins on one version (If-Match, issue 24's pattern): the editor is open when the owner
 * renames the policy (API); saving a rename says who changed what and saves nothing; saving again
 * keeps mine.
 */
async function editAgainstOwner(a: Page): Promise<void> {
  await a.getByRole('button', { name: `Edit ${POLICY}` }).click();
  const edit = a.getByRole('dialog', { name: `Edit ${POLICY}` });
  const owner = await userByEmail(server.db, server.businessId, OWNER);
  const ownerApi = await apiSignIn(server.url, OWNER, PASSWORD);
  const [policy] = (await ownerApi.call(listExpensePolicies)).data;
  await ownerApi.call(updateExpensePolicy, { params: { expense_policy_id: policy!.id }, body: { name: 'Receipts (owner)' } });
  await edit.getByLabel('Name', { exact: true }).fill(RENAMED);
  await edit.getByRole('button', { name: 'Save policy' }).click();
  await expect.poll(() => edit.getByRole('alert').textContent(), { timeout: 30_000 })
    .toMatch(new RegExp(`^${owner.name} renamed it at .+ to “Receipts \\(owner\\)”\\. Nothing of yours was saved\\. Save again to keep your version, or cancel to keep theirs\\.$`));
  expect(await axeFindings(a)).toEqual([]);
  await edit.getByRole('button', { name: 'Save policy' }).click();
  await edit.waitFor({ state: 'detached' });
  await a.getByRole('heading', { name: RENAMED, level: 2 }).waitFor({ timeout: 30_000 });
}

/** A desktop browser for one person, closed by the caller; its console is printed if the test fails. */
async function desktop(label: string): Promise<BrowserSession> {
  const session = await launchBrowser({ baseURL: server.url });
  printBrowserLogsOnFailure({ [label]: session });
  return session;
}

describe('policies, workflows and delegation: issue 29 end to end', () => {
  it('admin sets the policy and the workflow; the claims, the wizard offline on a phone, and an approval by delegation', async () => {
    printBrowserLogsOnFailure({ employee: browser });
    const adminApi = await apiSignIn(server.url, ADMIN, PASSWORD);
    await deleteSeededPolicies(adminApi);
    const manager = await userByEmail(server.db, server.businessId, MANAGER);
    const keeper = await userByEmail(server.db, server.businessId, BOOKKEEPER);

    // The employee's new 100 USD charge, through the simulated card network (Compliance counts it).
    const txn = await chargeCard(server, EMPLOYEE, 10_000, MERCHANT);
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);

    // The admin, at a desktop: the policy on /policies, then the workflow on /workflows.
    const admin = await desktop('admin');
    let waiting: { id: string; approver_id: string } | undefined;
    try {
      const a = admin.page;
      await a.goto('/');
      await signIn(a, ADMIN, PASSWORD);
      const policy = await openNewPolicy(a, POLICY);
      // A contradiction shows under its input before saving.
      await policy.getByRole('button', { name: 'Add a cap' }).click();
      await policy.getByLabel('Merchant category').fill('Restaurants');
      await policy.getByLabel('Per charge', { exact: true }).fill('200');
      await policy.getByLabel('Per day', { exact: true }).fill('100');
      await expect.poll(() => policy.textContent()).toMatch(/cap per transaction \(\$200\.00\) is above the cap per day \(\$100\.00\)/);
      expect(await axeFindings(a)).toEqual([]);
      await policy.getByRole('button', { name: /^Remove/ }).click();
      await createPolicy(a, policy, POLICY);
      await editAgainstOwner(a);

      // Compliance: the employee has something missing; a reminder is confirmed first, then mailed once.
      await a.getByRole('tab', { name: 'Compliance' }).click();
      const remind = a.getByRole('checkbox', { name: `Remind ${employee.name}` });
      await remind.waitFor({ timeout: 30_000 });
      expect(await axeFindings(a)).toEqual([]);
      await remind.check();
      await a.getByRole('button', { name: 'Send reminder (1)' }).click();
      const confirmSend = a.getByRole('dialog', { name: 'Send reminders?' });
      expect(await confirmSend.textContent()).toContain('Email 1 person a list of their missing items');
      await confirmSend.getByRole('button', { name: 'Email 1 person' }).click();
      await expect.poll(() => a.getByTestId('remind-outcome').textContent(), { timeout: 30_000 }).toMatch(/^Emailed 1 person \(\d+ items?\)\.$/);
      const [reminders] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM missing_item_reminders WHERE user_id = $1', [employee.id]);
      expect(reminders).toEqual({ n: 1 });

      const { action } = await startAutoApproveWorkflow(a, WORKFLOW);
      await action.getByLabel('When under', { exact: true }).fill('25.00');
      await a.getByRole('switch').check();
      const workflow = await createWorkflow(a, server, WORKFLOW);
      expect(workflow).toMatchObject({ enabled: true, trigger: 'claim.submitted' });

      // The employee's 20 USD claim is approved at once (its answer says so); a 30 USD one waits.
      const employeeApi = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
      const today = new Date().toISOString().slice(0, 10);
      const small = await employeeApi.call(createOutOfPocket, { body: { merchant: 'E2E Corner Café', amount: 2000, currency: 'USD', transaction_date: today } });
      expect(small.status).toBe('APPROVED');
      expect(await claimStatus(small.id)).toBe('APPROVED');
      const big = await employeeApi.call(createOutOfPocket, { body: { merchant: 'E2E Team Dinner', amount: 3000, currency: 'USD', transaction_date: today } });
      expect(big.status).toBe('SUBMITTED');
      [waiting] = await server.db.query<{ id: string; approver_id: string }>(
        `SELECT id::text, approver_id::text FROM approvals WHERE object_id = $1 AND status = 'PENDING'`, [big.id]);
      expect(waiting?.approver_id, 'the 30 USD claim waits for the manager').toBe(manager.id);

      // The execution log: the $20.00 run matched rule 1 and approved; the $30.00 one matched no rule.
      await a.getByRole('link', { name: 'Execution log' }).click();
      await a.getByRole('heading', { name: /Execution log/, level: 1 }).waitFor();
      const runs = a.getByRole('list', { name: 'Runs, newest first' });
      const smallRun = runs.getByRole('listitem').filter({ hasText: 'E2E Corner Café' }).first();
      await expect.poll(() => smallRun.textContent(), { timeout: 30_000 }).toContain('rule 1 matched');
      expect(await smallRun.textContent()).toMatch(/\$20\.00.*Approve automatically: done/s);
      expect(await runs.getByRole('listitem').filter({ hasText: 'E2E Team Dinner' }).first().textContent()).toContain('No rule matched');
      await smallRun.getByText('Conditions and actions').click();
      await smallRun.locator('.wf-run-details').getByText('$20.00 is under $25.00').waitFor();
      expect(await axeFindings(a)).toEqual([]);
      await a.setViewportSize(PHONE);
      await expectNoHorizontalScroll(a, 'execution log at 360 px');
      await a.setViewportSize({ width: 1280, height: 900 });
      // The list: on, the trigger in words, its last run.
      const list = await openWorkflows(a);
      // The seed's paused ones keep their last run; the new one is on with its own.
      expect(await list.getByRole('listitem').filter({ hasText: SEEDED_WORKFLOWS[0] }).textContent()).toMatch(/Last ran .* · version 2/);
      const card = list.getByRole('listitem').filter({ hasText: WORKFLOW });
      await expect.poll(() => card.textContent(), { timeout: 30_000 }).toMatch(/A claim is submitted.*Last ran/s);
      expect(await card.getByRole('switch').isChecked()).toBe(true);
      expect(await axeFindings(a)).toEqual([]);
      // The approval policy page (every type, groups, the simulation) is clean too.
      await a.goto('/approvals/policy?type=reimbursement');
      await a.getByRole('heading', { name: 'Reimbursement approval policy', level: 1 }).waitFor({ timeout: 30_000 });
      await a.getByRole('heading', { name: 'Approval groups' }).waitFor();
      await a.getByText(/Version|built-in policy/).first().waitFor({ timeout: 30_000 });
      expect(await axeFindings(a)).toEqual([]);
    } finally {
      await admin.close();
    }
    expect((await adminApi.call(listExpensePolicies)).data).toMatchObject([
      { name: RENAMED, enabled: true, scope: { kind: 'everyone' }, rules: { receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: { amount: 7500, currency: 'USD' } } },
    ]);

    // The server lists the employee's charge as missing.
    const employeeApi = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    expect(await serverMissing(employeeApi)).toContain(txn);

    // The employee's phone: the wizard lists the charge, from the mirror.
    const { page, context } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);
    await page.goto('/missing-items');
    await page.getByRole('heading', { name: 'Missing items', level: 1 }).waitFor();
    await page.locator('#wizard-item-title').waitFor({ timeout: 60_000 });
    for (let i = 0; i < 60 && (await wizardTitle(page)) !== MERCHANT; i++) await page.getByRole('button', { name: 'Skip' }).tap();
    expect(await wizardTitle(page)).toBe(MERCHANT);
    const item = page.locator('.wizard-item');
    expect(await item.textContent()).toMatch(/\$100\.00.*Missing: a receipt and a memo/);
    expect(await page.locator('.missing-progress-text').textContent()).toMatch(/^\d+ of \d+$/);
    expect(await axeFindings(page, PHONE)).toEqual([]);
    const before = await remaining(page);

    // Offline: the receipt photo (the back camera) and the memo. The item leaves the list at once.
    await setNetwork(context, false);
    await waitForSyncStatus(page, 'Offline');
    const camera = page.getByLabel('Take a photo of the receipt');
    expect(await camera.getAttribute('capture')).toBe('environment');
    expect(await camera.getAttribute('accept')).toBe('image/*');
    await camera.setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: await receiptPng(page) });
    await item.getByRole('heading', { name: '✓ Receipt added' }).waitFor({ timeout: 30_000 });
    await item.getByRole('textbox', { name: 'Memo' }).fill(MEMO);
    await item.getByRole('button', { name: /^Save and (next|finish)$/ }).tap();
    await expect.poll(() => remaining(page), { timeout: 30_000 }).toBe(before - 1);
    expect(await serverMissing(employeeApi)).toContain(txn);

    // Every value the list takes from now on is recorded: it must never count the item again.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __remaining: number[] }).__remaining = seen;
      const root = document.querySelector('.missing-items')!;
      new MutationObserver(() => seen.push(Number(root.getAttribute('data-remaining')))).observe(root, { attributes: true, attributeFilter: ['data-remaining'] });
    });

    // Online: the receipt uploads and attaches, the memo lands, once; the server agrees.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 90_000);
    await expect.poll(() => serverMissing(employeeApi), { timeout: 30_000 }).not.toContain(txn);
    const [row] = await server.db.query<{ memo: string | null; receipts: number }>(
      `SELECT t.memo, (SELECT count(*)::int FROM transaction_receipts tr WHERE tr.transaction_id = t.id) AS receipts FROM transactions t WHERE t.id = $1`, [txn],
    );
    expect(row).toEqual({ memo: MEMO, receipts: 1 });
    const seen = await pollPage(page, () => (window as unknown as { __remaining?: number[] }).__remaining, undefined);
    expect(seen.filter((n) => n > before - 1), `the list's counts after the fix: ${seen.join(', ')} (before: ${before})`).toEqual([]);
    expect(await remaining(page)).toBe(before - 1);

    // The manager: Settings → Out of office, the bookkeeper until three days from now, asked first.
    const mgr = await desktop('manager');
    try {
      const m = mgr.page;
      await m.goto('/');
      await signIn(m, MANAGER, PASSWORD);
      await m.goto('/settings');
      const section = m.getByRole('region', { name: 'Out of office' });
      const who = section.getByLabel('Let this person decide my approvals');
      await who.waitFor({ state: 'visible', timeout: 30_000 });
      await who.selectOption({ label: keeper.name });
      await section.getByLabel('Until (inclusive)').fill(inDays(3));
      await section.getByRole('button', { name: 'Delegate my approvals…' }).click();
      const confirm = m.getByRole('dialog', { name: new RegExp(`^Let ${keeper.name} decide your approvals until`) });
      expect(await confirm.textContent()).toContain(`by ${keeper.name} for you`);
      await confirm.getByRole('button', { name: 'Delegate', exact: true }).click();
      await confirm.waitFor({ state: 'detached' });
      await section.getByText(`${keeper.name} decides your approvals`).waitFor({ state: 'visible' });
      expect(await axeFindings(m)).toEqual([]);
    } finally {
      await mgr.close();
    }
    const [delegation] = await server.db.query<{ delegate_id: string }>(
      'SELECT delegate_id::text FROM approval_delegations WHERE business_id = $1 AND delegator_id = $2', [server.businessId, manager.id]);
    expect(delegation?.delegate_id).toBe(keeper.id);

    // The bookkeeper: the inbox marks the 30 USD claim "for <manager>"; they approve it from its drawer.
    const bk = await desktop('bookkeeper');
    try {
      const k = bk.page;
      await k.goto('/');
      await signIn(k, BOOKKEEPER, PASSWORD);
      await waitForSyncStatus(k, 'All changes synced', 120_000);
      await openSection(k, /^Approvals/);
      await k.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
      const listed = k.getByRole('row').filter({ hasText: 'E2E Team Dinner' }).first();
      await expect.poll(async () => (await listed.textContent()) ?? '', { timeout: 30_000 }).toContain(`for ${manager.name}`);
      expect(await axeFindings(k)).toEqual([]);
      await k.goto(`/approvals?open=${waiting!.id}`);
      await k.getByRole('dialog').filter({ hasText: 'E2E Team Dinner' }).getByRole('button', { name: 'Approve', exact: true }).click();
      await waitForSyncStatus(k, 'All changes synced', 60_000);
      await expect.poll(async () => (await server.db.query<{ status: string; decided_by: string; on_behalf_of: string }>(
        'SELECT status, decided_by::text, on_behalf_of::text FROM approvals WHERE id = $1', [waiting!.id],
      ))[0], { timeout: 30_000 }).toEqual({ status: 'APPROVED', decided_by: keeper.id, on_behalf_of: manager.id });
      await k.goto(`/approvals?tab=decided&open=${waiting!.id}`);
      await expect.poll(async () => (await k.getByRole('dialog').filter({ hasText: 'E2E Team Dinner' }).textContent()) ?? '', { timeout: 30_000 })
        .toContain(`by ${keeper.name} for ${manager.name}`);
    } finally {
      await bk.close();
    }
  }, 480_000);
});
