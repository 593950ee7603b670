/**
 * Issue 29, end to end on real parts only: the built PWA served by the real server (PGlite) in
 * headless Chromium, the server never mocked.
 *
 * The admin creates "receipt required from 75 USD" (and a memo above 75 USD) on /policies in a
 * desktop browser (a contradiction is shown before saving); on the Compliance tab the employee has
 * something missing and one reminder is sent after the confirmation. The employee's new 100 USD card charge appears in their missing-items
 * wizard, read from the mirror, on a 360 px touch phone. Offline they take the receipt photo and
 * write the memo: the item leaves the list at once. Online the two changes sync once, the
 * server's GET /users/current/missing-items no longer lists it, and the list never showed it
 * again meanwhile. axe finds nothing serious on /missing-items or /policies (with the dialog).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { simulateAuthorization } from '../../schema/api/calls-cards.ts';
import { deleteExpensePolicy, listExpensePolicies, listMissingItems } from '../../schema/api/calls-expense-policies.ts';
import { apiSignIn, type ApiClient } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { launchBrowser, pollPage, setNetwork, signIn, signInForOffline, waitForSyncStatus, type BrowserSession } from '../support/browser.ts';
import { userByEmail } from '../support/db-checks.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const EMPLOYEE = 'employee@demo.test';
const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';
const POLICY = 'E2E receipts from 75 USD';
const MERCHANT = 'E2E Policy Paper Co';
const MEMO = 'Printer paper for the office';
const PHONE = { width: 360, height: 740 };

useServerAndBrowser({ transactions: 30 }, 180_000, { viewport: PHONE, hasTouch: true, isMobile: true });

/** Every missing item the server lists for the caller (all pages). */
async function serverMissing(api: ApiClient): Promise<string[]> {
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

/** A PNG drawn in the page (canvas → Blob), as bytes: a real image the receipt check accepts. */
async function receiptPng(page: Page): Promise<Buffer> {
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

const wizardTitle = (page: Page) => page.locator('#wizard-item-title').textContent();
const remaining = (page: Page) => page.locator('.missing-items').getAttribute('data-remaining').then(Number);

describe('expense policies and the missing-items wizard, end to end', () => {
  it('admin sets a receipt from 75 USD; the employee fixes the 100 USD charge offline on a phone; online it leaves the list once', async () => {
    printBrowserLogsOnFailure({ browser });
    // Start from no policy at all (the demo seed brings one), so the admin's is the one that applies.
    const adminApi = await apiSignIn(server.url, ADMIN, PASSWORD);
    for (const p of (await adminApi.call(listExpensePolicies)).data) await adminApi.call(deleteExpensePolicy, { params: { expense_policy_id: p.id } });

    // The employee's new 100 USD charge, through the simulated card network.
    const employee = await userByEmail(server.db, server.businessId, EMPLOYEE);
    const employeeApi = await apiSignIn(server.url, EMPLOYEE, PASSWORD);
    const cards = await server.db.query<{ id: string }>(
      `SELECT id::text AS id FROM cards WHERE business_id = $1 AND user_id = $2 AND status = 'ACTIVE' AND NOT deleted ORDER BY created_at, id`, [server.businessId, employee.id],
    );
    let charged = false;
    for (const card of cards) {
      const r = await employeeApi.call(simulateAuthorization, { params: { card_uuid: card.id }, body: { amount: 10_000, merchant: MERCHANT, merchant_category: 'Office Supplies' } });
      if (r.approved) {
        charged = true;
        break;
      }
    }
    expect(charged).toBe(true);
    const [txn] = await server.db.query<{ id: string }>(
      'SELECT id::text AS id FROM transactions WHERE business_id = $1 AND merchant_name = $2', [server.businessId, MERCHANT],
    );

    // The admin creates the policy on /policies (desktop); axe on the page and on the dialog.
    let admin: BrowserSession | undefined;
    try {
      admin = await launchBrowser({ baseURL: server.url });
      printBrowserLogsOnFailure({ browser, admin });
      const a = admin.page;
      await a.goto('/');
      await signIn(a, ADMIN, PASSWORD);
      await waitForSyncStatus(a, 'All changes synced', 120_000);
      // Settings → Expense policies.
      await a.goto('/settings');
      await a.getByRole('link', { name: 'Expense policies' }).click();
      await a.getByRole('heading', { name: 'Expense policies', level: 1 }).waitFor();
      await a.getByRole('heading', { name: 'No expense policies yet' }).waitFor();
      expect(await axeFindings(a)).toEqual([]);
      await a.getByRole('button', { name: 'New policy' }).first().click();
      const dialog = a.getByRole('dialog', { name: 'New expense policy' });
      await dialog.getByLabel('Name', { exact: true }).fill(POLICY);
      // The form starts from a receipt required from 75 USD (DEFAULT_RECEIPT_THRESHOLD).
      expect(await dialog.getByLabel('Receipt required from: amount').inputValue()).toBe('75.00');
      await dialog.getByRole('checkbox', { name: 'Memo required above' }).check();
      await dialog.getByLabel('Memo required above: amount').fill('75');
      // A contradiction shows under its input before saving.
      await dialog.getByRole('button', { name: 'Add a cap' }).click();
      await dialog.getByLabel('Merchant category').fill('Restaurants');
      await dialog.getByLabel('Per charge', { exact: true }).fill('200');
      await dialog.getByLabel('Per day', { exact: true }).fill('100');
      await expect.poll(() => dialog.textContent()).toMatch(/cap per transaction \(\$200\.00\) is above the cap per day \(\$100\.00\)/);
      expect(await axeFindings(a)).toEqual([]);
      await dialog.getByRole('button', { name: /^Remove/ }).click();
      await dialog.getByRole('button', { name: 'Create policy' }).click();
      await dialog.waitFor({ state: 'detached' });
      await a.getByRole('heading', { name: POLICY, level: 2 }).waitFor({ timeout: 30_000 });
      expect(await a.locator('.policy-card').filter({ hasText: POLICY }).textContent()).toContain('Receipt from $75.00 · Memo above $75.00');

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
    } finally {
      await admin?.close();
    }
    const stored = (await adminApi.call(listExpensePolicies)).data;
    expect(stored).toMatchObject([{ name: POLICY, enabled: true, scope: { kind: 'everyone' }, rules: { receipt_required_from: { amount: 7500, currency: 'USD' }, memo_required_above: { amount: 7500, currency: 'USD' } } }]);
    expect(await serverMissing(employeeApi)).toContain(txn!.id);

    // The employee's phone: the wizard lists the charge, from the mirror.
    const { page, context } = browser;
    await signInForOffline(page, EMPLOYEE, PASSWORD);
    await page.goto('/missing-items');
    await page.getByRole('heading', { name: 'Missing items', level: 1 }).waitFor();
    await page.locator('#wizard-item-title').waitFor({ timeout: 60_000 });
    for (let i = 0; i < 60 && (await wizardTitle(page)) !== MERCHANT; i++) await page.getByRole('button', { name: 'Skip' }).click();
    expect(await wizardTitle(page)).toBe(MERCHANT);
    const item = page.locator('.wizard-item');
    expect(await item.textContent()).toMatch(/\$100\.00.*Missing: a receipt and a memo/);
    expect(await page.locator('.missing-progress-text').textContent()).toMatch(/^\d+ of \d+$/);
    expect(await axeFindings(page, PHONE)).toEqual([]);
    const before = await remaining(page);

    // Offline: the receipt photo and the memo. The item leaves the list at once.
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
    expect(await serverMissing(employeeApi)).toContain(txn!.id);

    // Every value the list takes from now on is recorded: it must never count the item again.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __remaining: number[] }).__remaining = seen;
      const root = document.querySelector('.missing-items')!;
      new MutationObserver(() => seen.push(Number(root.getAttribute('data-remaining')))).observe(root, { attributes: true, attributeFilter: ['data-remaining'] });
    });

    // Online: the receipt uploads, attaches and the memo lands, once; the server agrees.
    await setNetwork(context, true);
    await waitForSyncStatus(page, 'All changes synced', 90_000);
    await expect.poll(() => serverMissing(employeeApi), { timeout: 30_000 }).not.toContain(txn!.id);
    const [row] = await server.db.query<{ memo: string | null; receipts: number }>(
      `SELECT t.memo, (SELECT count(*)::int FROM transaction_receipts tr WHERE tr.transaction_id = t.id) AS receipts FROM transactions t WHERE t.id = $1`, [txn!.id],
    );
    expect(row).toEqual({ memo: MEMO, receipts: 1 });
    const seen = await pollPage(page, () => (window as unknown as { __remaining?: number[] }).__remaining, undefined);
    expect(seen.filter((n) => n > before - 1), `the list's counts after the fix: ${seen.join(', ')} (before: ${before})`).toEqual([]);
    expect(await remaining(page)).toBe(before - 1);
  }, 480_000);
});
