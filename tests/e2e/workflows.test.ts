/**
 * Issue 29, automation workflows end to end on real parts only: the built PWA served by the real
 * server (PGlite) in headless Chromium, the server never mocked.
 *
 * The demo admin creates "auto-approve claims under 25 USD" in the form view (claim submitted,
 * amount under $25.00 → approve automatically under $25.00), runs the dry run (the result shows),
 * switches it on and creates it; the canvas shows the same workflow, a step moved with the keyboard
 * keeps its place once saved; an arrow removed in a step's settings marks both steps, and dragging from
 * the condition's handle onto the action connects them again. The demo employee submits a $20.00 claim (through the API): it is
 * approved at once. The execution log shows the run with the rule matched and the action done.
 * axe finds nothing serious on the list, the editor (form and canvas) and the log, at desktop and
 * phone sizes.
 */
import { describe, expect, it } from 'vitest';
import { createOutOfPocket } from '../../schema/api/calls-reimbursements.ts';
import { getCanvasWorkflow } from '../../schema/api/calls-workflows.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';

const ADMIN = 'admin@demo.test';
const EMPLOYEE = 'employee@demo.test';
const PASSWORD = 'demo-password-1';
const NAME = 'Auto-approve claims under 25 USD';

useServerAndBrowser({ transactions: 30 }, 180_000);

const claimStatus = async (id: string) =>
  (await server.db.query<{ status: string }>('SELECT status FROM reimbursements WHERE id = $1', [id]))[0]?.status;

describe('workflows, end to end', () => {
  it('an admin creates, dry-runs and enables "auto-approve claims under 25 USD"; a $20 claim is approved at once and the log shows the run', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await page.goto('/workflows');
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No workflows yet' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // New workflow, form view: claim submitted; if amount under $25.00 then approve automatically under $25.00.
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByRole('heading', { name: 'New workflow', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(NAME);
    expect(await page.getByLabel('When').inputValue()).toBe('claim.submitted');
    await page.getByRole('button', { name: 'Add condition to rule 1' }).click();
    const condition = page.getByRole('group', { name: 'Condition 1 of rule 1' });
    expect(await condition.getByLabel('Check', { exact: true }).inputValue()).toBe('amount');
    await condition.getByLabel('Is', { exact: true }).selectOption({ label: 'under' });
    await condition.getByLabel('Amount', { exact: true }).fill('25');
    const action = page.getByRole('group', { name: 'Action 1 of rule 1' });
    await action.getByLabel('Do', { exact: true }).selectOption({ label: 'Approve automatically' });
    // Saving before the amount is given says so on the field, and sends nothing.
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await action.getByText('Enter the amount it approves under.').waitFor();
    await action.getByLabel('When under', { exact: true }).fill('25.00');

    // The dry run, before enabling: counts and results over the last 30 days.
    await page.getByRole('button', { name: 'What would this have done in the last 30 days?' }).click();
    const dry = page.locator('.wf-dry');
    await expect.poll(() => dry.textContent(), { timeout: 30_000 }).toMatch(/events?, [\d,]+ matched a rule/);

    await page.getByRole('switch').check();
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.getByRole('heading', { name: NAME, level: 1 }).waitFor({ timeout: 30_000 });
    const [stored] = await server.db.query<{ id: string; enabled: boolean; trigger: string }>(
      'SELECT id::text AS id, enabled, trigger FROM workflows WHERE business_id = $1 AND name = $2 AND NOT deleted', [server.businessId, NAME]);
    expect(stored).toMatchObject({ enabled: true, trigger: 'claim.submitted' });
    expect(page.url()).toContain(`/workflows/${stored!.id}`);

    // The same workflow on the canvas; a step moved with the keyboard keeps its place once saved.
    await page.getByRole('tab', { name: 'Canvas' }).click();
    const step = page.getByRole('group', { name: /^Approve automatically .*Approve automatically when under \$25\.00/ });
    await page.getByRole('group', { name: /^Condition step .*If amount under \$25\.00/ }).waitFor();
    const before = await step.boundingBox();
    await step.focus();
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await step.boundingBox())!.y - before!.y).toBe(80);
    // Disconnect through the step's settings (the keyboard's way): both steps are marked; drag from the
    // condition's handle onto the action to connect them again: the marks go.
    const rule = page.getByRole('group', { name: /^Condition step .*If amount under \$25\.00/ });
    await rule.focus();
    await page.keyboard.press('Enter');
    const settings = page.getByRole('dialog', { name: /^Condition step/ });
    await settings.getByRole('button', { name: 'Remove arrow' }).click();
    await settings.getByRole('button', { name: 'Apply' }).click();
    await settings.waitFor({ state: 'detached' });
    await expect.poll(() => step.getAttribute('aria-label')).toContain('Problem: This step is not connected to the workflow.');
    expect(await rule.getAttribute('aria-label')).toContain('Problem: Connect each condition step to the first of its actions.');
    const handle = (await rule.locator('.wf-handle').boundingBox())!;
    const target = (await step.boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => step.getAttribute('aria-label')).not.toContain('Problem');
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save workflow' }).click();
    const admin = await apiSignIn(server.url, ADMIN, PASSWORD);
    await expect.poll(async () => {
      const drawn = await admin.call(getCanvasWorkflow, { params: { product_workflow_uuid: stored!.id } });
      const rule = drawn.canvas.nodes.find((n) => n.type === 'rule')!;
      const act = drawn.canvas.nodes.find((n) => n.type === 'action')!;
      return act.position.y - rule.position.y;
    }, { timeout: 30_000 }).toBe(80);

    // The employee's $20.00 claim is approved at once; a $30.00 one waits.
    const employee = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const today = new Date().toISOString().slice(0, 10);
    const small = await employee.call(createOutOfPocket, { body: { merchant: 'E2E Corner Café', amount: 2000, currency: 'USD', transaction_date: today } });
    expect(await claimStatus(small.id)).toBe('APPROVED');
    const big = await employee.call(createOutOfPocket, { body: { merchant: 'E2E Big Dinner', amount: 3000, currency: 'USD', transaction_date: today } });
    expect(await claimStatus(big.id)).toBe('SUBMITTED');

    // The execution log: the $20.00 run matched rule 1 and approved; the $30.00 one matched no rule.
    await page.getByRole('link', { name: 'Execution log' }).click();
    await page.getByRole('heading', { name: /Execution log/, level: 1 }).waitFor();
    const runs = page.getByRole('list', { name: 'Runs, newest first' });
    const smallRun = runs.getByRole('listitem').filter({ hasText: 'E2E Corner Café' }).first();
    await expect.poll(() => smallRun.textContent(), { timeout: 30_000 }).toContain('rule 1 matched');
    const text = (await smallRun.textContent()) ?? '';
    expect(text).toContain('$20.00');
    expect(text).toContain('Approve automatically: done');
    expect(await runs.getByRole('listitem').filter({ hasText: 'E2E Big Dinner' }).first().textContent()).toContain('No rule matched');
    await smallRun.getByText('Conditions and actions').click();
    await smallRun.locator('.wf-run-details').getByText('$20.00 is under $25.00').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // The list: on, trigger in words, last run.
    await page.goto('/workflows');
    const card = page.getByRole('list', { name: 'Workflows' }).getByRole('listitem').filter({ hasText: NAME });
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('A claim is submitted');
    expect(await card.textContent()).toContain('Last ran');
    expect(await card.getByRole('switch').isChecked()).toBe(true);
    expect(await axeFindings(page)).toEqual([]);

    // At 360 px nothing scrolls sideways: the list, the form view, the canvas (it pans inside its own box) and the log.
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      await expectNoHorizontalScroll(page, 'workflows list');
      await page.goto(`/workflows/${stored!.id}`);
      await page.getByRole('heading', { name: NAME, level: 1 }).waitFor();
      await page.getByRole('group', { name: 'Action 1 of rule 1' }).waitFor();
      await expectNoHorizontalScroll(page, 'editor, form view');
      await page.getByRole('tab', { name: 'Canvas' }).click();
      await step.waitFor();
      await expectNoHorizontalScroll(page, 'editor, canvas');
      await page.goto(`/workflows/${stored!.id}/log`);
      await runs.waitFor();
      await expectNoHorizontalScroll(page, 'execution log');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
