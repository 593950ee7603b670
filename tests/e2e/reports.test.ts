/**
 * Issue 12, end to end: the Reports page on real parts only — the built PWA (dist/) served by
 * the real server (PGlite) in Debian's headless Chromium.
 *
 * The bookkeeper mirrors the demo business and opens Reports. Offline from then on: the figures for
 * "All time" equal what the database holds (spend = pending and cleared card transactions, in
 * USD), a department's row in "By department" equals its SQL sum and opens exactly its
 * transactions, and coding one uncoded transaction in its drawer (still offline) takes one off
 * "Missing coding" at once (an Uber ride, coded with the demo mapping rule's suggestion); "Export CSV" on that list writes exactly its rows. Back online the
 * edit lands once. Issue 25: "Missing receipts" and "Missing coding" count the selected currency
 * only and change with it; their link opens that currency's list (the Currency filter, which fits
 * a 360 px phone). axe finds nothing serious.
 */
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { exportHeader } from '../../schema/exports.ts';
import { axeFindings } from '../support/axe.ts';
import { openSection, setNetwork, signIn, waitForSyncStatus } from '../support/browser.ts';
import { COLUMNS, searchBox, waitForTotal } from '../support/transactions-page.ts';
import { browser, server, useServerAndBrowser } from '../support/e2e-app.ts';

/** Issue 12's end-to-end persona: a bookkeeper closes the month. */
const BOOKKEEPER = 'bookkeeper@demo.test';
const PASSWORD = 'demo-password-1';

useServerAndBrowser({ transactions: 300 });

const usd = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);
const SPEND = `business_id = $1 AND state IN ('PENDING', 'CLEARED') AND NOT deleted AND occurred_at < now()`;

async function one<T>(sql: string, params: unknown[] = [server.businessId]): Promise<T> {
  const [row] = await server.db.query<T & Record<string, unknown>>(sql, params);
  if (!row) throw new Error(`no row for ${sql}`);
  return row;
}

/** A figure of the strip at the top, by its label. */
const figure = (label: string) => browser.page.locator('.kpi').filter({ has: browser.page.getByText(label, { exact: true }) }).locator('dd');

describe('reports, end to end', () => {
  it('computes the figures offline from the mirror, equal to the database, and opens the matching rows', async () => {
    const { page } = browser;
    await page.goto(server.url);
    await signIn(page, BOOKKEEPER, PASSWORD);
    await waitForSyncStatus(page, 'All changes synced', 120_000);
    await openSection(page, 'Reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();

    await setNetwork(browser.context, false);
    await waitForSyncStatus(page, 'Offline');
    await page.getByRole('combobox', { name: 'Range' }).selectOption('all');

    const spend = await one<{ sum: string; n: string }>(`SELECT coalesce(sum(amount), 0)::text AS sum, count(*)::text AS n FROM transactions WHERE ${SPEND} AND currency = 'USD'`);
    await expect.poll(() => figure('Spend · USD').textContent(), { timeout: 30_000 }).toBe(usd(Number(spend.sum)));
    // Issue 25: the count and the average are of the same currency as the spend, so they agree.
    await expect.poll(() => figure('Transactions · USD').textContent()).toBe(Number(spend.n).toLocaleString('en-US'));
    await expect.poll(() => figure('Average · USD').textContent()).toBe(usd(Math.round(Number(spend.sum) / Number(spend.n))));
    await expect.poll(() => browser.page.getByTestId('kpi-scope').textContent()).toContain('pending and cleared, excluding declined and reversed');

    // The largest named department: its row in "By department" is its SQL sum.
    const dept = await one<{ id: string; name: string; sum: string }>(
      `SELECT d.id::text, d.name, sum(t.amount)::text AS sum FROM transactions t JOIN departments d ON d.id = t.department_id
        WHERE t.business_id = $1 AND t.state IN ('PENDING', 'CLEARED') AND NOT t.deleted AND t.occurred_at < now()
          AND t.currency = 'USD' GROUP BY d.id, d.name ORDER BY sum(t.amount) DESC LIMIT 1`,
    );
    const card = page.getByRole('region', { name: 'By department', exact: true });
    const row = card.getByRole('row').filter({ has: page.getByRole('rowheader', { name: dept.name }) });
    await expect.poll(() => row.getByRole('cell').first().textContent()).toBe(usd(Number(dept.sum)));
    // Each chart is drawn (a canvas named for assistive technology), its table beside it.
    for (const title of ['Spend over time', 'By department', 'Top merchants', 'Top categories', 'Missing receipts and coding']) {
      const chart = page.getByRole('region', { name: title, exact: true }).getByRole('img');
      await expect.poll(() => chart.locator('canvas').count()).toBe(1);
    }
    expect(await axeFindings(page)).toEqual([]);

    // Its name opens exactly its spend in the transactions list, the filters shown.
    await row.getByRole('button', { name: dept.name }).click();
    await page.waitForURL(/\/transactions\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('department_ids')).toBe(dept.id);
    expect(url.searchParams.get('states')).toBe('PENDING,CLEARED');
    // Issue 25: the list opens on the figure's currency (its Currency filter set), so its rows are the row's sum's.
    expect(url.searchParams.get('currency')).toBe('USD');
    const rows = await one<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE ${SPEND} AND currency = 'USD' AND department_id = $2`, [server.businessId, dept.id]);
    await waitForTotal(page, Number(rows.n));
    await page.getByText('Status: Pending, Cleared').waitFor();

    // Export CSV (still offline): the file holds exactly those rows, with the shared header.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = Papa.parse<string[]>(await readFile((await download.path())!, 'utf8'), { skipEmptyLines: true });
    expect(csv.data[0]).toEqual(exportHeader('transactions'));
    const idAt = exportHeader('transactions').indexOf('Transaction ID');
    const ids = await server.db.query<{ id: string }>(`SELECT id::text FROM transactions WHERE ${SPEND} AND currency = 'USD' AND department_id = $2`, [server.businessId, dept.id]);
    expect(new Set(csv.data.slice(1).map((r) => r[idAt]))).toEqual(new Set(ids.map((r) => r.id)));
    expect(csv.data).toHaveLength(ids.length + 1);
  });

  it('follows an offline edit at once: coding a transaction takes it off "Missing coding"', async () => {
    const { page } = browser;
    await page.goBack();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const uncoded = await one<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE ${SPEND} AND currency = 'USD' AND gl_account_id IS NULL`);
    await expect.poll(() => figure('Missing coding · USD').textContent(), { timeout: 30_000 }).toBe(Number(uncoded.n).toLocaleString('en-US'));

    // The figure is a link to those transactions (USD, like the count); code the first one in its drawer.
    await figure('Missing coding · USD').getByRole('link').click();
    await page.waitForURL(/missing_coding=true/);
    await waitForTotal(page, Number(uncoded.n));
    // An uncoded Uber ride: the demo's mapping rule (Uber → 6022) is suggested in its drawer, offline.
    // The search also finds "Uber Eats" (which of them is newest depends on the day the demo is seeded): take an Uber row.
    await searchBox(page).fill('Uber');
    const ride = page.getByRole('grid').getByRole('row').filter({ has: page.getByRole('gridcell', { name: 'Uber', exact: true }) }).first();
    await ride.waitFor({ timeout: 30_000 });
    await ride.getByRole('gridcell').nth(COLUMNS.merchant).click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Close details' }) });
    const target = new URL(page.url()).searchParams.get('open');
    const gl = await one<{ label: string; id: string }>(`SELECT code || ' ' || name AS label, id::text FROM gl_accounts WHERE business_id = $1 AND code = '6022'`);
    const note = drawer.getByRole('note').filter({ hasText: 'Suggested by a mapping rule' });
    await expect.poll(() => note.textContent()).toContain(gl.label);
    await note.getByRole('button', { name: 'Apply suggestion' }).click();
    await expect.poll(() => drawer.getByRole('combobox', { name: 'GL account' }).inputValue()).toBe(gl.label);
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.getByRole('button', { name: 'Close details' }).click();

    await openSection(page, 'Reports');
    await page.getByRole('combobox', { name: 'Range' }).selectOption('all');
    await expect.poll(() => figure('Missing coding · USD').textContent(), { timeout: 30_000 }).toBe((Number(uncoded.n) - 1).toLocaleString('en-US'));

    // Back online, the edit lands once.
    await setNetwork(browser.context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const stored = await one<{ gl: string | null }>(`SELECT gl_account_id::text AS gl FROM transactions WHERE business_id = $1 AND id = $2`, [server.businessId, target]);
    expect(stored.gl).toBe(gl.id);
  });

  it('counts missing receipts and coding of the selected currency only: they change with the currency, and open that currency\'s list', async () => {
    const { page } = browser;
    /** Spend rows with no receipt and with no GL account, of one currency (null: of every currency). */
    const missing = async (currency: string | null) => {
      const row = await one<{ receipts: string; coding: string }>(
        `SELECT count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id
                                                   WHERE tr.transaction_id = t.id AND NOT rc.deleted))::text AS receipts,
                count(*) FILTER (WHERE gl_account_id IS NULL)::text AS coding
           FROM transactions t WHERE ${SPEND} AND currency = coalesce($2::text, currency)`,
        [server.businessId, currency],
      );
      return { receipts: Number(row.receipts).toLocaleString('en-US'), coding: Number(row.coding).toLocaleString('en-US') };
    };
    // The currency with the most spend after USD: the demo card charges abroad in it.
    const other = await one<{ currency: string }>(`SELECT currency FROM transactions WHERE ${SPEND} AND currency <> 'USD' GROUP BY currency ORDER BY count(*) DESC LIMIT 1`);
    const usdCounts = await missing('USD');
    const otherCounts = await missing(other.currency);
    // Every currency's counts (what the tiles once showed) are neither: the assertions below can fail.
    expect(await missing(null)).not.toEqual(usdCounts);
    expect(otherCounts).not.toEqual(usdCounts);

    await expect.poll(() => figure('Missing receipts · USD').textContent(), { timeout: 30_000 }).toBe(usdCounts.receipts);
    await expect.poll(() => figure('Missing coding · USD').textContent()).toBe(usdCounts.coding);
    await expect.poll(() => page.getByTestId('kpi-scope').textContent()).toContain('Missing receipts and coding count USD transactions only: pending and cleared');

    await page.getByRole('combobox', { name: 'Currency' }).selectOption(other.currency);
    await expect.poll(() => figure(`Missing receipts · ${other.currency}`).textContent(), { timeout: 30_000 }).toBe(otherCounts.receipts);
    await expect.poll(() => figure(`Missing coding · ${other.currency}`).textContent()).toBe(otherCounts.coding);
    await expect.poll(() => page.getByTestId('kpi-scope').textContent()).toContain(`Missing receipts and coding count ${other.currency} transactions only`);
    expect(await figure('Missing coding · USD').count()).toBe(0);

    // The tile opens exactly the transactions it counts: that currency's, with the Currency filter set.
    await figure(`Missing receipts · ${other.currency}`).getByRole('link').click();
    await page.waitForURL(/missing_receipt=true/);
    expect(new URL(page.url()).searchParams.get('currency')).toBe(other.currency);
    await waitForTotal(page, Number(otherCounts.receipts.replace(/,/g, '')));
    await expect.poll(() => page.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe(other.currency);
    // The totals line shows that currency's total only.
    await expect.poll(() => page.getByTestId('result-totals').textContent()).toContain(`${otherCounts.receipts} ${other.currency} transactions`);
    expect(await page.getByTestId('result-totals').textContent()).not.toContain('USD');

    // At 360 px the filters fold under "Filters" and wrap: the row never scrolls sideways, Currency is inside the screen.
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await page.getByRole('button', { name: /^Filters/ }).click();
      const currency = page.getByRole('combobox', { name: 'Currency' });
      await currency.waitFor();
      const box = await currency.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
      const filters = page.getByRole('group', { name: 'Filters' });
      const { scrollWidth, clientWidth } = await filters.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
      expect(scrollWidth, `filters ${scrollWidth} px in ${clientWidth} px`).toBeLessThanOrEqual(clientWidth);
      // Clearing the currency shows every currency again.
      await currency.selectOption('');
      await page.waitForURL((u) => !u.searchParams.has('currency'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await openSection(page, 'Reports');
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Range' }).selectOption('all');
  });

  it('saves a custom report to a new dashboard offline; it opens at once and reaches the server once online', async () => {
    const { page } = browser;
    await setNetwork(browser.context, false);
    await waitForSyncStatus(page, 'Offline');
    const custom = page.getByRole('region', { name: 'Custom report', exact: true });
    await custom.getByRole('combobox', { name: 'Group by' }).selectOption('merchant');
    await custom.getByRole('button', { name: 'Save to dashboard' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save to a dashboard' });
    await dialog.getByLabel('Report name').fill('Merchants by month');
    await dialog.getByRole('combobox', { name: 'Dashboard' }).selectOption('new');
    await dialog.getByLabel('New dashboard name').fill('Board meeting');
    await dialog.getByRole('button', { name: 'Save report' }).click();
    await page.getByRole('heading', { name: 'Board meeting', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Merchants by month' }).getByRole('table', { name: 'Merchants by month' }).waitFor();
    expect(await axeFindings(page)).toEqual([]);

    await setNetwork(browser.context, true);
    await waitForSyncStatus(page, 'All changes synced', 60_000);
    const dashboards = await server.db.query<{ name: string; items: { report_id: string }[] }>(
      `SELECT name, items FROM dashboards WHERE business_id = $1 AND name = 'Board meeting' AND NOT deleted`, [server.businessId],
    );
    expect(dashboards).toHaveLength(1);
    const reports = await server.db.query<{ id: string; query: { dimension: string; from?: string } }>(
      `SELECT id::text, query FROM saved_reports WHERE business_id = $1 AND name = 'Merchants by month' AND NOT deleted`, [server.businessId],
    );
    expect(reports).toHaveLength(1);
    expect(reports[0]!.query.dimension).toBe('merchant');
    // Dates are the dashboard's: the saved query keeps none.
    expect(reports[0]!.query.from).toBeUndefined();
    expect(dashboards[0]!.items.map((i) => i.report_id)).toEqual([reports[0]!.id]);
  });
});
