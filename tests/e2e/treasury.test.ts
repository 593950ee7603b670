/**
 * Issue 30's end-to-end scenario (first part), on real parts only: the built PWA served by the
 * real server (PGlite) in headless Chromium, the server never mocked.
 *
 * The demo admin, at a desktop, opens Treasury (the seeded Operating, Reserve and Investment
 * accounts, from the mirror), sends a 250 USD transfer from Operating to Reserve through the
 * preview (amount, both accounts, fee and settlement date named before "Send transfer"): the
 * server holds exactly one PENDING transfer and Operating's balance drops by the hold at once.
 * A second transfer (made through the API) is canceled in the list after its confirmation: its
 * hold comes back. A sweep ("move what is above … into Reserve") is created through its review
 * and run now: exactly one transfer of the excess, one MOVED run. Offline, a reload still shows
 * the balances with the time they were read. The ledger checks after it all; axe finds nothing
 * serious on each screen.
 */
import { describe, expect, it } from 'vitest';
import { createTransfer } from '../../schema/api/calls-treasury.ts';
import { checkLedger } from '../../server/ledger/check.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { reloadOffline, setNetwork, signInForOffline } from '../support/browser.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

const ADMIN = 'admin@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 30 }, 180_000, { viewport: { width: 1280, height: 900 } });

type Account = { id: string; name: string; balance: number };
async function wallet(kind: 'OPERATING' | 'RESERVE'): Promise<Account> {
  const [row] = await server.db.query<{ id: string; name: string; balance: string }>(
    `SELECT id::text, name, balance::text FROM ledger_accounts
      WHERE business_id = $1 AND kind = $2 AND currency = 'USD' AND NOT deleted ORDER BY is_primary DESC, created_at LIMIT 1`,
    [server.businessId, kind],
  );
  if (!row) throw new Error(`the demo has no ${kind} USD account`);
  return { id: row.id, name: row.name, balance: Number(row.balance) };
}
const transfersWithMemo = (memo: string) => server.db.query<{ id: string; status: string; amount: string }>(
  'SELECT id::text, status, amount::text FROM wallet_transfers WHERE business_id = $1 AND memo = $2', [server.businessId, memo],
);

describe('treasury: issue 30 end to end', () => {
  it('admin previews and sends a transfer, cancels another, runs a sweep, and reads balances offline', async () => {
    printBrowserLogsOnFailure({ admin: browser });
    const { page, context } = browser;
    await signInForOffline(page, ADMIN, PASSWORD);
    const operating = await wallet('OPERATING');
    const reserve = await wallet('RESERVE');

    // Accounts, from the mirror.
    await page.goto('/treasury');
    await page.getByRole('heading', { name: 'Treasury', level: 1 }).waitFor();
    const accounts = page.getByRole('list', { name: 'Wallet accounts' });
    await accounts.getByText(operating.name, { exact: true }).first().waitFor({ timeout: 60_000 });
    expect(await accounts.textContent()).toContain('Primary');
    expect(await axeFindings(page)).toEqual([]);

    // A transfer through its preview: nothing is sent before "Send transfer".
    await page.getByRole('link', { name: 'Transfers' }).click();
    await page.getByRole('heading', { name: 'Transfers', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New transfer' }).click();
    const form = page.getByRole('dialog', { name: 'New transfer' });
    await form.getByRole('combobox', { name: /^From/ }).selectOption(operating.id);
    await form.getByRole('combobox', { name: /^To/ }).selectOption(reserve.id);
    await form.getByLabel('Amount (USD)').fill('250.00');
    await form.getByLabel('Memo (optional)').fill('E2E move to reserve');
    expect(await axeFindings(page)).toEqual([]);
    await form.getByRole('button', { name: 'Preview transfer' }).click();
    const check = page.getByRole('dialog', { name: 'Check and send the transfer' });
    await check.waitFor({ timeout: 30_000 });
    const summary = (await check.textContent()) ?? '';
    expect(summary).toMatch(/\$250\.00/);
    expect(summary).toContain(operating.name);
    expect(summary).toContain(reserve.name);
    expect(summary).toMatch(/Fee/);
    expect(summary).toMatch(/Expected settlement/);
    expect(await transfersWithMemo('E2E move to reserve')).toEqual([]);
    await check.getByRole('button', { name: 'Send transfer' }).click();
    await expect.poll(() => transfersWithMemo('E2E move to reserve'), { timeout: 30_000 })
      .toEqual([{ id: expect.any(String), status: 'PENDING', amount: '25000' }]);
    await expect.poll(async () => (await wallet('OPERATING')).balance, { timeout: 30_000 }).toBe(operating.balance - 25_000);

    // Another transfer (through the API), canceled in the list after its confirmation.
    const api = await apiSignIn(server.url, ADMIN, PASSWORD);
    const other = await api.call(createTransfer, {
      params: { wallet_account_uuid: operating.id },
      body: { to_account_id: reserve.id, amount: { amount: 4_000, currency: 'USD' }, memo: 'E2E to cancel' },
    });
    expect(other.status).toBe('PENDING');
    await expect.poll(async () => (await wallet('OPERATING')).balance, { timeout: 30_000 }).toBe(operating.balance - 29_000);
    const cancel = page.getByRole('button', { name: `Cancel transfer of $40.00 USD from ${operating.name} to ${reserve.name}` });
    await cancel.waitFor({ timeout: 60_000 });
    await cancel.click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this transfer?' });
    expect(await confirm.textContent()).toMatch(/hold of \$40\.00 returns to/);
    await confirm.getByRole('button', { name: 'Cancel transfer' }).click();
    await expect.poll(async () => (await transfersWithMemo('E2E to cancel'))[0]?.status, { timeout: 30_000 }).toBe('CANCELED');
    await expect.poll(async () => (await wallet('OPERATING')).balance, { timeout: 30_000 }).toBe(operating.balance - 25_000);
    expect((await transfersWithMemo('E2E move to reserve'))[0]?.status).toBe('PENDING');
    expect(await axeFindings(page)).toEqual([]);

    // A sweep: everything above (balance − 1,000 USD) down to (balance − 1,500 USD) into Reserve, run now.
    const before = (await wallet('OPERATING')).balance;
    const threshold = Math.floor(before / 100) - 1_000;
    const target = threshold - 500;
    await page.getByRole('link', { name: 'Automations' }).click();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const rule = page.getByRole('dialog', { name: 'New automation' });
    await rule.getByRole('combobox', { name: /^What it does/ }).selectOption('SWEEP_ABOVE');
    await rule.getByRole('combobox', { name: /^Account it watches/ }).selectOption(operating.id);
    await rule.getByRole('combobox', { name: /^Move the excess into/ }).selectOption(reserve.id);
    await rule.getByLabel('Threshold (USD)').fill(String(threshold));
    await rule.getByLabel('Target balance (USD)').fill(String(target));
    await rule.getByRole('button', { name: 'Review' }).click();
    const review = page.getByRole('dialog', { name: 'Create this automation?' });
    expect(await review.textContent()).toContain(reserve.name);
    await review.getByRole('button', { name: 'Create automation' }).click();
    await page.getByRole('list', { name: 'Automations' }).waitFor({ timeout: 30_000 });
    expect(await axeFindings(page)).toEqual([]);
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('dialog', { name: 'Run the automations now?' }).getByRole('button', { name: 'Run now' }).click();
    const swept = () => server.db.query<{ status: string; amount: string }>(
      `SELECT r.status, t.amount::text FROM automation_runs r LEFT JOIN wallet_transfers t ON t.id = r.transfer_id
        WHERE r.business_id = $1`, [server.businessId]);
    await expect.poll(swept, { timeout: 30_000 }).toEqual([{ status: 'MOVED', amount: String(before - target * 100) }]);
    expect((await wallet('OPERATING')).balance).toBe(target * 100);

    // Offline: the balances still read, with the time they were read.
    await page.goto('/treasury');
    await page.getByRole('heading', { name: 'Treasury', level: 1 }).waitFor();
    await setNetwork(context, false);
    await reloadOffline(browser);
    await page.getByRole('heading', { name: 'Treasury', level: 1 }).waitFor({ timeout: 60_000 });
    await page.getByRole('status').filter({ hasText: /^Offline · read at / }).waitFor({ timeout: 30_000 });
    await page.getByRole('list', { name: 'Wallet accounts' }).getByText(operating.name, { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await axeFindings(page)).toEqual([]);
    await setNetwork(context, true);

    const report = await checkLedger(server.db, server.businessId);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });
});
