/**
 * Issue 12 accounting close, end to end on real parts only: the built PWA (dist/) served by the
 * real server (PGlite) in Debian's headless Chromium.
 *
 * One deep scenario, as the bookkeeper (a bill pay accounting manager, §6), with two cleared card
 * transactions coded through the API and CSV export connected: the Accounting page switches the
 * provider to QuickBooks Desktop, runs "Sync now" (the answer counts the items), and the IIF file
 * downloaded from the sync history is read back: every TRNS/SPL…ENDTRNS block balances to zero
 * and the coded transactions are in it. A second sync has nothing to take and says so. A mapping
 * rule is added and applied: the page says how many uncoded transactions it coded, as the server
 * holds them. A synced transaction's drawer shows the lock with its coding read-only; bulk coding
 * it is refused in ACCOUNTING_7301's words; "Mark as not synced" unlocks it and the server's row has
 * no synced mark any more. Offline the page says it needs a connection and shows nothing stale, and
 * comes back with the connection. axe finds nothing; the CSP blocked nothing.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { connectAccountingProvider } from '../../schema/api/calls-accounting.ts';
import { patchTransaction } from '../../schema/api/calls.ts';
import { apiSignIn } from '../support/api.ts';
import { axeFindings } from '../support/axe.ts';
import { openSection, setNetwork, signInAndOpen, waitForSyncStatus } from '../support/browser.ts';
import { chooseCoding, grid, searchBox, selectionBar } from '../support/transactions-page.ts';
import { errorBody } from '../../schema/errors.ts';
import { browser, printBrowserLogsOnFailure, server, useServerAndBrowser } from '../support/e2e-app.ts';

/** Issue 12's end-to-end persona: a bookkeeper closes the month. */
const BOOKKEEPER = 'bookkeeper@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 20 });

interface IifBlock {
  lines: string[][];
  /** Sum of the AMOUNT column over the block's TRNS and SPL lines, in cents. */
  cents: number;
}

/** An independent IIF reader: the header rows name the columns, each TRNS…ENDTRNS is one block. */
function readIif(text: string): IifBlock[] {
  const rows = text.split(/\r?\n/).filter((l) => l !== '').map((l) => l.split('\t'));
  const header = new Map(rows.filter((r) => r[0]!.startsWith('!')).map((r) => [r[0]!.slice(1), r]));
  const amountAt = (kind: string) => header.get(kind)!.indexOf('AMOUNT');
  const blocks: IifBlock[] = [];
  let open: IifBlock | null = null;
  for (const row of rows) {
    const kind = row[0]!;
    if (kind.startsWith('!')) continue;
    if (kind === 'TRNS') {
      expect(open, 'a TRNS inside another block').toBeNull();
      open = { lines: [], cents: 0 };
    }
    expect(open, `${kind} outside a block`).not.toBeNull();
    if (kind === 'ENDTRNS') {
      blocks.push(open!);
      open = null;
      continue;
    }
    expect(['TRNS', 'SPL']).toContain(kind);
    const amount = row[amountAt(kind)]!;
    expect(amount).toMatch(/^-?\d+(\.\d{2})?$/);
    open!.lines.push(row);
    open!.cents += Math.round(Number(amount) * 100);
  }
  expect(open, 'an unterminated block').toBeNull();
  return blocks;
}

describe('accounting, end to end', () => {
  it('switches to QuickBooks Desktop, syncs, downloads a balanced IIF, and unlocks a synced transaction', async () => {
    printBrowserLogsOnFailure({ browser });
    const bookkeeper = await apiSignIn(server.url, BOOKKEEPER, PASSWORD);
    const [gl, otherGl] = await server.db.query<{ id: string; name: string; code: string }>(
      `SELECT id::text, name, code FROM gl_accounts WHERE business_id = $1 AND active ORDER BY code LIMIT 2`, [server.businessId]);
    const cleared = await server.db.query<{ id: string; merchant_name: string; amount: string; currency: string }>(
      `SELECT id::text, merchant_name, amount::text, currency FROM transactions WHERE business_id = $1 AND state = 'CLEARED' AND amount > 0
        ORDER BY occurred_at DESC LIMIT 2`, [server.businessId]);
    expect(cleared).toHaveLength(2);
    for (const t of cleared) {
      await bookkeeper.call(patchTransaction, { params: { transaction_canonical_uuid: t.id }, body: { gl_account_id: gl!.id } });
    }
    await bookkeeper.call(connectAccountingProvider, { params: { provider_type: 'csv' }, body: {} });
    const target = cleared[0]!;

    const { page } = browser;
    await signInAndOpen(page, BOOKKEEPER, PASSWORD, 'Accounting');
    const provider = page.getByTestId('accounting-provider');
    await provider.getByText('CSV', { exact: true }).waitFor();
    await page.getByText('No syncs yet', { exact: true }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    // Switch the provider to QuickBooks Desktop.
    await page.getByRole('button', { name: 'Change provider' }).click();
    const choose = page.getByRole('dialog', { name: 'Change accounting provider' });
    await choose.getByRole('radio', { name: /QuickBooks Desktop \(IIF\)/ }).check();
    expect(await axeFindings(page)).toEqual([]);
    await choose.getByRole('button', { name: 'Switch provider' }).click();
    await choose.waitFor({ state: 'detached' });
    await provider.getByText('QuickBooks Desktop (IIF)', { exact: true }).waitFor();

    // Sync now: every coded, approved, unsynced item in one commit.
    const syncNow = page.getByRole('button', { name: 'Sync now' });
    await syncNow.click();
    // Issue 25: it asks first, with what will be exported and locked (per source and currency) from the server.
    const preview = page.getByRole('dialog', { name: /^Export and lock [\d,]+ items?\?$/ });
    await preview.waitFor({ timeout: 30_000 });
    const previewed = Number((await preview.getByRole('heading').first().textContent())!.match(/lock ([\d,]+) item/)![1]!.replace(/,/g, ''));
    await preview.getByRole('button', { name: /^Export and lock/ }).click();
    await preview.waitFor({ state: 'detached', timeout: 30_000 });
    const result = page.getByTestId('sync-result');
    // QuickBooks books an IIF amount in its account's currency: one file per currency the items are in.
    await result.getByText(/^Synced [\d,]+ items? into [\d,]+ files?\.$/).waitFor({ timeout: 30_000 });
    const items = Number((await result.textContent())!.match(/Synced ([\d,]+) item/)![1]!.replace(/,/g, ''));
    expect(items).toBeGreaterThanOrEqual(2);
    expect(items).toBe(previewed);
    const commits = await server.db.query<{ item_count: number }>(`SELECT item_count FROM accounting_sync_commits WHERE business_id = $1`, [server.businessId]);
    expect(commits).toEqual([{ item_count: items }]);

    // The history lists it; its IIF file downloads and every block balances to zero.
    const row = page.getByTestId('commit-row').filter({ hasText: 'QuickBooks Desktop (IIF)' });
    await row.waitFor();
    expect(await row.locator('td.num').textContent()).toBe(String(items));
    const fileButtons = row.getByRole('button', { name: /^Download ledgerline-quickbooks-.*-[A-Z]{3}\.iif$/ });
    const fileCount = await fileButtons.count();
    expect(fileCount).toBeGreaterThanOrEqual(1);
    let blocks: ReturnType<typeof readIif> = [];
    let targetFile: ReturnType<typeof readIif> = [];
    for (let i = 0; i < fileCount; i++) {
      const [download] = await Promise.all([page.waitForEvent('download'), fileButtons.nth(i).click()]);
      const name = download.suggestedFilename();
      expect(name).toMatch(/^ledgerline-quickbooks-.*-[A-Z]{3}\.iif$/);
      // Windows-1252 bytes (QuickBooks Desktop's code page); the columns read here are ASCII.
      const iif = await readFile((await download.path())!, 'latin1');
      expect(iif.startsWith('!TRNS\t')).toBe(true);
      const read = readIif(iif);
      blocks = [...blocks, ...read];
      if (name.endsWith(`-${target.currency}.iif`)) targetFile = read;
    }
    expect(blocks).toHaveLength(items);
    for (const block of blocks) {
      expect(block.cents, block.lines.map((l) => l.join(' | ')).join('\n')).toBe(0);
      expect(block.lines[0]![0]).toBe('TRNS');
      expect(block.lines.length).toBeGreaterThanOrEqual(2);
      // Dates as QuickBooks expects: MM/DD/YYYY.
      for (const line of block.lines) expect(line[2]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    }
    const targetBlock = targetFile.find((b) => b.lines[0]![0] === 'TRNS' && b.lines[0]![1] === 'CREDIT CARD' && b.lines[0]![5] === (-Number(target.amount) / 100).toFixed(2));
    expect(targetBlock, 'the coded transaction’s block').toBeDefined();
    expect(targetBlock!.lines.slice(1).map((l) => l[3])).toContain(gl!.name);
    expect(await axeFindings(page)).toEqual([]);

    // A second sync has nothing to take: said as such, and no empty commit.
    await syncNow.click();
    await page.getByText(/^Nothing to sync: every coded, approved item has already been exported\./).waitFor({ timeout: 30_000 });
    await expect.poll(async () => page.getByTestId('commit-row').count()).toBe(1);

    // A mapping rule, applied to the uncoded transactions: the count said is the server's.
    const [uncoded] = await server.db.query<{ merchant: string; n: number }>(
      `SELECT merchant_name AS merchant, count(*)::int AS n FROM transactions
        WHERE business_id = $1 AND gl_account_id IS NULL AND accounting_synced_at IS NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`, [server.businessId]);
    await page.getByRole('button', { name: 'New rule' }).first().click();
    const ruleForm = page.getByRole('dialog', { name: 'New mapping rule' });
    await ruleForm.getByLabel('Condition').selectOption('equals');
    await ruleForm.getByLabel('Text').fill(uncoded!.merchant);
    await chooseCoding(ruleForm, 'GL account', `${otherGl!.code} ${otherGl!.name}`);
    expect(await axeFindings(page)).toEqual([]);
    await ruleForm.getByRole('button', { name: 'Add rule' }).click();
    await ruleForm.waitFor({ state: 'detached' });
    const ruleRow = page.getByTestId('rule-row');
    await ruleRow.getByRole('rowheader', { name: `Merchant name is “${uncoded!.merchant}”` }).waitFor();
    await ruleRow.getByText(`GL account ${otherGl!.code} ${otherGl!.name}`).waitFor();
    await page.getByRole('button', { name: 'Apply rules to uncoded transactions' }).click();
    const plural = uncoded!.n === 1 ? 'transaction' : 'transactions';
    await page.getByTestId('apply-result').getByText(`Rules coded ${uncoded!.n} uncoded ${plural}.`).waitFor();
    const [coded] = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE business_id = $1 AND merchant_name = $2 AND gl_account_id = $3`, [server.businessId, uncoded!.merchant, otherGl!.id]);
    expect(coded!.n).toBe(uncoded!.n);

    // The synced transaction's drawer: locked, coding read-only; "Mark as not synced" unlocks it.
    await page.goto(`/transactions?open=${target.id}`);
    const drawer = page.getByRole('dialog', { name: target.merchant_name });
    const lock = drawer.getByTestId('synced-lock');
    await lock.getByText(/^Exported to accounting on .+\. Coding is locked so the books match\.$/).waitFor({ timeout: 60_000 });
    const glField = drawer.getByRole('combobox', { name: 'GL account' });
    expect(await glField.isDisabled()).toBe(true);
    expect(await drawer.getByRole('button', { name: 'Save', exact: true }).isVisible()).toBe(false);
    expect(await axeFindings(page)).toEqual([]);

    // Bulk coding a selection holding it is refused before anything is queued, saying how to unlock it.
    await drawer.getByRole('button', { name: 'Close details' }).click();
    await drawer.waitFor({ state: 'detached' });
    await searchBox(page).fill(target.merchant_name);
    await grid(page).getByRole('checkbox', { name: 'Select all matching' }).click();
    await selectionBar(page).getByRole('button', { name: /^Code [\d,]+/ }).click();
    const bulk = page.getByRole('dialog', { name: /^Code [\d,]+ transactions?$/ });
    await chooseCoding(bulk, 'GL account', `${otherGl!.code} ${otherGl!.name}`);
    await bulk.getByRole('button', { name: /^Apply to/ }).click();
    await page.getByText(errorBody('ACCOUNTING_7301').error_v2.message, { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await bulk.waitFor({ state: 'detached' });
    const [still] = await server.db.query<{ gl: string }>(`SELECT gl_account_id::text AS gl FROM transactions WHERE id = $1`, [target.id]);
    expect(still!.gl).toBe(gl!.id);

    await page.goto(`/transactions?open=${target.id}`);
    await lock.getByRole('button', { name: 'Mark as not synced' }).click();
    await lock.waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(() => glField.isDisabled(), { timeout: 30_000 }).toBe(false);
    const [after] = await server.db.query<{ at: string | null }>(`SELECT accounting_synced_at::text AS at FROM transactions WHERE id = $1`, [target.id]);
    expect(after!.at).toBeNull();

    // Offline the page pretends nothing: it says accounting needs a connection and shows no stale data.
    await setNetwork(browser.context, false);
    await waitForSyncStatus(page, 'Offline');
    await openSection(page, 'Accounting');
    await page.getByRole('heading', { name: 'Accounting settings need a connection' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sync now' }).count()).toBe(0);
    expect(await page.getByTestId('commit-row').count()).toBe(0);
    await setNetwork(browser.context, true);
    await page.getByRole('button', { name: 'Sync now' }).waitFor({ timeout: 30_000 });

    expect(browser.cspViolations).toEqual([]);
  }, 240_000);
});
