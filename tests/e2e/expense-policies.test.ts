/**
 * Issue 29, the expense policy editor's and Compliance's own checks end to end (the built PWA on the
 * real server, PGlite, headless Chromium; never mocked). The whole story — the policy, the employee's
 * missing-items wizard offline on a phone, the fix synced once — is e2e/policies-workflows.test.ts;
 * here, in a desktop browser: the form starts at a receipt from 75.00, a cap per charge above the cap
 * per day shows its contradiction before saving; on the Compliance tab the employee (a 100 USD charge
 * through cards.simulate) has something missing and one reminder is sent after the confirmation:
 * mailed once, one `missing_item_reminders` row. Two admins on one version (If-Match): the editor open
 * while the owner renames the policy says who changed what and saves nothing; saving again keeps
 * mine. axe on /policies (with the dialog, the conflict, Compliance).
 */
import { describe, expect, it } from 'vitest';
import { listExpensePolicies, updateExpensePolicy } from '../../schema/api/calls-expense-policies.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn, waitForSyncStatus } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { chargeCard, createPolicy, DEMO_PASSWORD as PASSWORD, deleteSeededPolicies, openNewPolicy, serverMissing } from '../support/policies-workflows.ts';

const EMPLOYEE = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const OWNER = 'owner@demo.test';
const POLICY = 'E2E receipts from 75 USD';
const RENAMED = 'E2E receipts from 75 USD (kept)';
const MERCHANT = 'E2E Policy Paper Co';

useServerAndBrowser({ transactions: 30 }, 180_000);

describe('expense policies: the editor and Compliance, end to end', () => {
  it('a contradiction shows before saving; a conflict with another admin is said truthfully; Compliance lists the employee and one reminder is confirmed, then mailed once', async () => {
    printBrowserLogsOnFailure({ browser });
    const adminApi = await apiSignIn(server.url, ADMIN, PASSWORD);
    await deleteSeededPolicies(adminApi);
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const txn = await chargeCard(server, EMPLOYEE, 10_000, MERCHANT);

    const a = browser.page;
    await a.goto('/');
    await signIn(a, ADMIN, PASSWORD);
    await waitForSyncStatus(a, 'All changes synced', 120_000);
    const dialog = await openNewPolicy(a, POLICY);
    // A contradiction shows under its input before saving.
    await dialog.getByRole('button', { name: 'Add a cap' }).click();
    await dialog.getByLabel('Merchant category').fill('Restaurants');
    await dialog.getByLabel('Per charge', { exact: true }).fill('200');
    await dialog.getByLabel('Per day', { exact: true }).fill('100');
    await expect.poll(() => dialog.textContent()).toMatch(/cap per transaction \(\$200\.00\) is above the cap per day \(\$100\.00\)/);
    expect(await axeFindings(a)).toEqual([]);
    await dialog.getByRole('button', { name: /^Remove/ }).click();
    await createPolicy(a, dialog, POLICY);

    // Two admins on one version: the editor is open when the owner renames the policy (API); saving
    // a rename says who changed what and saves nothing; saving again keeps mine (If-Match, issue 24).
    await a.getByRole('button', { name: `Edit ${POLICY}` }).click();
    const edit = a.getByRole('dialog', { name: `Edit ${POLICY}` });
    const [policy] = (await adminApi.call(listExpensePolicies)).data;
    const owner = await userByEmail(server.db, server.businessId, OWNER);
    await (await apiSignIn(server.url, OWNER, PASSWORD)).call(updateExpensePolicy, { params: { expense_policy_id: policy!.id }, body: { name: 'Receipts (owner)' } });
    await edit.getByLabel('Name', { exact: true }).fill(RENAMED);
    await edit.getByRole('button', { name: 'Save policy' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^${owner.name} renamed it at .+ to “Receipts \\(owner\\)”\\. Nothing of yours was saved\\. Save again to keep your version, or cancel to keep theirs\\.$`));
    expect(await axeFindings(a)).toEqual([]);
    await edit.getByRole('button', { name: 'Save policy' }).click();
    await edit.waitFor({ state: 'detached' });
    await a.getByRole('heading', { name: RENAMED, level: 2 }).waitFor({ timeout: 30_000 });

    // Compliance: the employee has something missing; a reminder is confirmed first, then mailed once.
    await a.getByRole('tab', { name: 'Compliance' }).click();
    const remind = a.getByRole('checkbox', { name: `Remind ${employee.name}` });
    await remind.waitFor({ timeout: 30_000 });
    expect(await axeFindings(a)).toEqual([]);
    await remind.check();
    await a.getByRole('button', { name: 'Send reminder (1)' }).click();
    const confirm = a.getByRole('dialog', { name: 'Send reminders?' });
    expect(await confirm.textContent()).toContain('Email 1 person a list of their missing items');
    await confirm.getByRole('button', { name: 'Email 1 person' }).click();
    await expect.poll(() => a.getByTestId('remind-outcome').textContent(), { timeout: 30_000 }).toMatch(/^Emailed 1 person \(\d+ items?\)\.$/);
    const [reminders] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM missing_item_reminders WHERE user_id = $1', [employee.id]);
    expect(reminders).toEqual({ n: 1 });

    expect((await adminApi.call(listExpensePolicies)).data).toMatchObject([
      { name: RENAMED, enabled: true, scope: { kind: 'everyone' }, rules: { receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: { amount: 7500, currency: 'USD' } } },
    ]);
    expect(await serverMissing(await apiSignIn(server.url, EMPLOYEE, PASSWORD))).toContain(txn);
  }, 240_000);
});
