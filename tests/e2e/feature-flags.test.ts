/**
 * Issue 32, Settings → Feature flags end to end: the built PWA served by the real server (PGlite)
 * in headless Chromium. The demo admin's invite form does not offer the Auditor role (the flag is
 * off by default); Settings links to the flags page (axe clean); switching "Auditor role" on and
 * saving asks first, saying what changes for whom; the bulk bill limit refuses 600 in words and
 * saves 120 after its confirmation; a reload shows both saved. The invite form then offers Auditor.
 * At 390 and 360 px nothing scrolls sideways and the save bar is whole on screen.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '../support/axe.ts';
import { signIn } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, useServerAndBrowser } from '../support/e2e-app.ts';
import { expectInViewport, expectNoHorizontalScroll } from '../support/phone-page.ts';
import type { Page } from 'playwright-core';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 5 });

async function inviteRoles(page: Page): Promise<string[]> {
  await page.goto('/team');
  await page.getByRole('button', { name: 'Invite people' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Invite people' });
  const roles = await dialog.getByLabel('Role').locator('option').allTextContents();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return roles;
}

describe('feature flags page', () => {
  it('turns the Auditor role on and changes the bulk limit, each asked first; the invite form follows the flag', async () => {
    printBrowserLogsOnFailure({ browser });
    const page = browser.page;
    await page.goto('/sign-in');
    await signIn(page, ADMIN, PASSWORD);
    expect(await inviteRoles(page)).not.toContain('Auditor');

    await page.goto('/settings');
    await page.getByRole('link', { name: 'Manage feature flags' }).click();
    await page.getByRole('heading', { name: 'Feature flags', level: 1 }).waitFor();
    const auditor = page.getByRole('group', { name: 'Auditor role' });
    await auditor.getByText('Default: Off').waitFor();
    expect(await axeFindings(page)).toEqual([]);

    await auditor.getByRole('switch').click();
    await page.getByText('1 unsaved change').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    const ask = page.getByRole('dialog', { name: 'Save 1 change to access rules and limits?' });
    await ask.getByText('Auditor role: Off → On. Owners and admins can invite people as Auditors and change someone’s role to Auditor.').waitFor();
    expect(await axeFindings(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Save 1 change' }).click();
    await ask.waitFor({ state: 'detached' });
    await auditor.getByText('Changed', { exact: true }).waitFor();

    const limit = page.getByRole('spinbutton', { name: 'Bills at a time' });
    await limit.fill('600');
    await page.getByText('Enter a whole number from 1 to 500.').waitFor();
    expect(await page.getByRole('button', { name: 'Save changes' }).isDisabled()).toBe(true);
    await limit.fill('120');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const askLimit = page.getByRole('dialog', { name: 'Save 1 change to access rules and limits?' });
    await askLimit.getByText(/Bills per bulk action: 50 → 120\. Everyone who manages bills can act on at most 120 bills at a time/).waitFor();
    await askLimit.getByRole('button', { name: 'Save 1 change' }).click();
    await askLimit.waitFor({ state: 'detached' });

    await page.reload();
    await expect.poll(() => page.getByRole('spinbutton', { name: 'Bills at a time' }).inputValue()).toBe('120');
    expect(await page.getByRole('group', { name: 'Auditor role' }).getByRole('switch').isChecked()).toBe(true);

    for (const width of [390, 360]) {
      await page.setViewportSize({ width, height: 760 });
      await expectNoHorizontalScroll(page, `flags page at ${width}`);
      await page.getByRole('group', { name: 'Login history' }).getByRole('switch').click();
      const bar = page.getByRole('region', { name: 'Unsaved changes' });
      await expectInViewport(bar.getByRole('button', { name: 'Save changes' }), `save button at ${width}`);
      await expectNoHorizontalScroll(page, `flags page with the save bar at ${width}`);
      await bar.getByRole('button', { name: 'Discard' }).click();
      await bar.waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await inviteRoles(page)).toContain('Auditor');
  }, 90_000);
});
