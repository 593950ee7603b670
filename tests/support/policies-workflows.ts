/**
 * Issue 29's e2e steps shared by `e2e/policies-workflows.test.ts` (the deep scenario) and
 * `e2e/workflows.test.ts` (the editor's own checks): the data made through the real API and the
 * screens driven by role and accessible name.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { deleteExpensePolicy, listExpensePolicies, listMissingItems } from '../../schema/api/calls-expense-policies.ts';
import type { TestServer } from '../../server/testing.ts';
import { apiSignIn, type ApiClient } from './api.ts';
import { userByEmail } from './db-checks.ts';

export const DEMO_PASSWORD = 'demo-password-1';

/** The demo seed's expense policies deleted, so the one an admin makes is the one that applies. */
export async function deleteSeededPolicies(admin: ApiClient): Promise<void> {
  for (const p of (await admin.call(listExpensePolicies)).data) await admin.call(deleteExpensePolicy, { params: { expense_policy_id: p.id } });
}

/** Every missing item the server lists for the caller (all pages), as object ids. */
export async function serverMissing(api: ApiClient): Promise<string[]> {
  const ids: string[] = [];
  let start: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = await api.call(listMissingItems, { query: { page_size: '100', ...(start ? { start } : {}) } });
    ids.push(...page.data.map((m) => m.object_id));
    if (!page.page.next) break;
    start = page.page.next;
  }
  return ids;
}

/**
 * A charge on one of the person's active cards through the simulated card network (the first card
 * whose controls approve it), answered as the transaction's id.
 */
export async function chargeCard(server: TestServer, email: string, amount: number, merchant: string): Promise<string> {
  const person = await userByEmail(server.db, server.businessId, email);
  const api = await apiSignIn(server.url, email, DEMO_PASSWORD);
  const cards = await server.db.query<{ id: string }>(
    `SELECT id::text AS id FROM cards WHERE business_id = $1 AND user_id = $2 AND status = 'ACTIVE' AND NOT deleted ORDER BY created_at, id`,
    [server.businessId, person.id],
  );
  for (const card of cards) {
    const r = await api.call(simulateAuthorization, { params: { card_uuid: card.id }, body: { amount, merchant, merchant_category: 'Office Supplies' } });
    if (r.approved) break;
  }
  const [txn] = await server.db.query<{ id: string }>(
    'SELECT id::text AS id FROM transactions WHERE business_id = $1 AND merchant_name = $2', [server.businessId, merchant],
  );
  expect(txn, `a card of ${email} took the ${amount / 100} USD charge`).toBeTruthy();
  return txn!.id;
}

/** A PNG drawn in the page (canvas → Blob), as bytes: a real image the receipt check accepts. */
export async function receiptPng(page: Page): Promise<Buffer> {
  const bytes = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(60, 80);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, 60, 80);
    g.fillStyle = '#222222';
    for (let y = 10; y < 70; y += 10) g.fillRect(8, y, 44, 3);
    const blob = await canvas.convertToBlob({ type: 'image/png' });
    return [...new Uint8Array(await blob.arrayBuffer())];
  });
  return Buffer.from(bytes);
}

/** Settings → Expense policies (none yet) → New policy: the open dialog, its name filled. */
export async function openNewPolicy(page: Page, name: string): Promise<Locator> {
  await page.goto('/settings');
  await page.getByRole('link', { name: 'Expense policies' }).click();
  await page.getByRole('heading', { name: 'Expense policies', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'No expense policies yet' }).waitFor();
  await page.getByRole('button', { name: 'New policy' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New expense policy' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  // The form starts from a receipt required from 75 USD (DEFAULT_RECEIPT_THRESHOLD).
  expect(await dialog.getByLabel('Receipt required from: amount').inputValue()).toBe('75.00');
  await dialog.getByRole('checkbox', { name: 'Memo required above' }).check();
  await dialog.getByLabel('Memo required above: amount').fill('75');
  return dialog;
}

/** The dialog's Create policy: the new policy's card reads "Receipt from $75.00 · Memo above $75.00". */
export async function createPolicy(page: Page, dialog: Locator, name: string): Promise<void> {
  await dialog.getByRole('button', { name: 'Create policy' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name, level: 2 }).waitFor({ timeout: 30_000 });
  expect(await page.locator('.policy-card').filter({ hasText: name }).textContent()).toContain('Receipt from $75.00 · Memo above $75.00');
}

/** The demo seed's workflows (server/seed/workflows.ts): all off; the first two ran before they were paused. */
export const SEEDED_WORKFLOWS = ['Large claims: tell the bookkeeper', 'Flights: ask the traveller for the e-ticket', 'Software over $200 needs a receipt'] as const;

/** /workflows: the list of the seed's workflows, each off. */
export async function openWorkflows(page: Page): Promise<Locator> {
  await page.goto('/workflows');
  await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
  const list = page.getByRole('list', { name: 'Workflows' });
  for (const name of SEEDED_WORKFLOWS) {
    const card = list.getByRole('listitem').filter({ hasText: name });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('switch').isChecked(), `${name} is off`).toBe(false);
  }
  return list;
}

/**
 * /workflows → New workflow, form view: the name, "claim submitted" (the default trigger), if
 * amount under $25.00, the action "Approve automatically" (its amount still empty).
 */
export async function startAutoApproveWorkflow(page: Page, name: string): Promise<{ action: Locator }> {
  await openWorkflows(page);
  await page.getByRole('link', { name: 'New workflow' }).click();
  await page.getByRole('heading', { name: 'New workflow', level: 1 }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill(name);
  expect(await page.getByLabel('When').inputValue()).toBe('claim.submitted');
  await page.getByRole('button', { name: 'Add condition to rule 1' }).click();
  const condition = page.getByRole('group', { name: 'Condition 1 of rule 1' });
  expect(await condition.getByLabel('Check', { exact: true }).inputValue()).toBe('amount');
  await condition.getByLabel('Is', { exact: true }).selectOption({ label: 'under' });
  await condition.getByLabel('Amount', { exact: true }).fill('25');
  const action = page.getByRole('group', { name: 'Action 1 of rule 1' });
  await action.getByLabel('Do', { exact: true }).selectOption({ label: 'Approve automatically' });
  return { action };
}

/** The editor's Create workflow; answers the stored workflow's id once its page shows. */
export async function createWorkflow(page: Page, server: TestServer, name: string): Promise<{ id: string; enabled: boolean; trigger: string }> {
  await page.getByRole('button', { name: 'Create workflow' }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor({ timeout: 30_000 });
  const [stored] = await server.db.query<{ id: string; enabled: boolean; trigger: string }>(
    'SELECT id::text AS id, enabled, trigger FROM workflows WHERE business_id = $1 AND name = $2 AND NOT deleted', [server.businessId, name]);
  expect(page.url()).toContain(`/workflows/${stored!.id}`);
  return stored!;
}
