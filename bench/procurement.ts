/**
 * Issue 28's pages in the built app against the bench's server, as the admin whose mirror is
 * complete: the Requests list (its Team tab: the business's requests, the demo's seeded ones),
 * the Purchase orders list, and a PO page (the seed's PO-000001). Each is opened by URL — a full
 * navigation: the app shell (the service worker's copy), the data worker reopening the mirror and
 * the page's query — and timed on the new document's clock, which starts at navigation, until
 * the frame in which its first data row (the PO page: its heading and first line) is in the DOM.
 * Median of 3 each. `npm run bench` measures them after its other phases; alone:
 * `npm run bench -- --only procurement --transactions 2000` (seconds, no other phase).
 */
import type { Page } from 'playwright-core';
import { defaultBills } from '../server/seed/bills.ts';
import { startTestServer } from '../server/testing.ts';
import { launchBrowser, signIn, waitForSyncStatus } from '../tests/support/browser.ts';
import { installProbe, waitForHook } from './app-probe.ts';
import type { Db } from './fixtures.ts';
import { ADMIN } from './phases.ts';
import { median, roundMs } from './stats.ts';

const RUNS = 3;
/** The first data row of a list (row 1 is the header). */
const REQUEST_ROW = '[role="grid"] .request-row[aria-rowindex="2"]';
const PO_ROW = '[role="grid"] .po-row[aria-rowindex="2"]';
const PO_LINE = '.po-page .po-lines tbody tr';

export type ProcurementPages = {
  requests_first_row_ms: number;
  purchase_orders_first_row_ms: number;
  purchase_order_page_ms: number;
  /** Every sample, for the details. */
  samples: string;
};

/** Opens `path` by URL and answers the new document's time at the first frame `selector` matches. */
async function openToReady(page: Page, path: string, selector: string, timeoutMs: number): Promise<number> {
  await page.goto(path, { waitUntil: 'commit' });
  const found = await page.waitForFunction(
    (sel) => (document.querySelector(sel) ? performance.now() : 0), selector, { polling: 'raf', timeout: timeoutMs },
  );
  return Number(await found.jsonValue());
}

export async function measureProcurementPages(page: Page, db: Db, businessId: string, timeoutMs = 60_000): Promise<ProcurementPages> {
  const [po] = await db.query<{ id: string }>(
    `SELECT id::text AS id FROM purchase_orders WHERE business_id = $1 AND NOT deleted ORDER BY po_number LIMIT 1`, [businessId],
  );
  if (!po) throw new Error('no purchase order to open: the seed has no procurement demo (server/seed/procurement.ts)');
  const pages = [
    { key: 'requests_first_row_ms', path: '/requests?view=team', selector: REQUEST_ROW },
    { key: 'purchase_orders_first_row_ms', path: '/purchase-orders', selector: PO_ROW },
    { key: 'purchase_order_page_ms', path: `/purchase-orders/${po.id}`, selector: PO_LINE },
  ] as const;
  const samples: Record<(typeof pages)[number]['key'], number[]> = { requests_first_row_ms: [], purchase_orders_first_row_ms: [], purchase_order_page_ms: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const p of pages) samples[p.key].push(await openToReady(page, p.path, p.selector, timeoutMs));
  }
  // Whatever runs next finds the app attached and synced, as before.
  await waitForHook(page);
  await waitForSyncStatus(page, 'All changes synced', 120_000);
  return {
    requests_first_row_ms: roundMs(median(samples.requests_first_row_ms)),
    purchase_orders_first_row_ms: roundMs(median(samples.purchase_orders_first_row_ms)),
    purchase_order_page_ms: roundMs(median(samples.purchase_order_page_ms)),
    samples: pages.map((p) => `${p.path.replace(po.id, ':id')} ${samples[p.key].map(roundMs).join(' / ')}`).join('; '),
  };
}

/** `--only procurement`: a server seeded with `transactions` (and N / 5 bills), the admin's first mirror (untimed), then the three pages. */
export async function runProcurementOnly(opts: { transactions: number; log: (msg: string) => void }): Promise<ProcurementPages> {
  const { log } = opts;
  log(`starting the server with ${opts.transactions} transactions and ${defaultBills(opts.transactions)} bills (seeding is not timed)`);
  // Bills as a full run seeds them: the POs and their bills come with the accounts-payable history.
  const server = await startTestServer({ transactions: opts.transactions, bills: defaultBills(opts.transactions), serveDist: true });
  const browser = await launchBrowser({ baseURL: server.url });
  try {
    await installProbe(browser.context);
    await browser.page.goto('/');
    await signIn(browser.page, ADMIN.email, ADMIN.password, 600_000);
    await waitForHook(browser.page, 600_000);
    await waitForSyncStatus(browser.page, 'All changes synced', 600_000);
    log(`Requests, Purchase orders and a PO page, each opened by URL (median of ${RUNS})`);
    return await measureProcurementPages(browser.page, server.db, server.businessId);
  } finally {
    await browser.close();
    await server.close();
  }
}
