/**
 * Issue 29, the workflow editor's own checks end to end (the built PWA on the real server, PGlite,
 * headless Chromium; never mocked). The whole story — the admin's "auto-approve claims under
 * 25 USD", the $20.00 claim approved at once, the execution log — is e2e/policies-workflows.test.ts;
 * here: saving without the action's amount says so on its field, the dry run shows its counts, the
 * canvas shows the same workflow, a step moved with the keyboard keeps its place once saved, an
 * arrow removed in a step's settings marks both steps and a mouse drag from the condition's handle
 * onto the action connects them again; axe on the editor (form, canvas); at 360 px nothing scrolls
 * sideways (list, form, canvas).
 */
import { describe, expect, it } from 'vitest';
import { getCanvasWorkflow } from '../../schema/api/calls-workflows.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { signIn, waitForSyncStatus } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';
import { expectNoHorizontalScroll } from '../support/phone-page.ts';
import { createWorkflow, DEMO_PASSWORD as PASSWORD, startAutoApproveWorkflow } from '../support/policies-workflows.ts';

const ADMIN = 'admin@demo.test';
const NAME = 'Auto-approve claims under 25 USD';

useServerAndBrowser({ transactions: 30 }, 180_000);

describe('workflows, end to end', () => {
  it('the editor: a missing amount said on its field, the dry run, the canvas (keyboard move, drag to connect) saved; nothing scrolls sideways at 360 px', async () => {
    printBrowserLogsOnFailure({ browser });
    const { page } = browser;
    await page.goto('/');
    await signIn(page, ADMIN, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    const { action } = await startAutoApproveWorkflow(page, NAME);
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
    const stored = await createWorkflow(page, server, NAME);
    expect(stored).toMatchObject({ enabled: true, trigger: 'claim.submitted' });

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
      const drawn = await admin.call(getCanvasWorkflow, { params: { product_workflow_uuid: stored.id } });
      const rule = drawn.canvas.nodes.find((n) => n.type === 'rule')!;
      const act = drawn.canvas.nodes.find((n) => n.type === 'action')!;
      return act.position.y - rule.position.y;
    }, { timeout: 30_000 }).toBe(80);

    // At 360 px nothing scrolls sideways: the list, the form view, the canvas (it pans inside its own box).
    await page.goto('/workflows');
    await page.getByRole('list', { name: 'Workflows' }).getByRole('listitem').filter({ hasText: NAME }).waitFor();
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      await expectNoHorizontalScroll(page, 'workflows list');
      await page.goto(`/workflows/${stored.id}`);
      await page.getByRole('heading', { name: NAME, level: 1 }).waitFor();
      await page.getByRole('group', { name: 'Action 1 of rule 1' }).waitFor();
      await expectNoHorizontalScroll(page, 'editor, form view');
      await page.getByRole('tab', { name: 'Canvas' }).click();
      await step.waitFor();
      await expectNoHorizontalScroll(page, 'editor, canvas');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
