/**
 * The benchmark's measurements, in one run against the real server and real Chromium. Phases:
 * 1. main_js_gzip_kb from dist/;
 * 2. raw_idb_put_ms: the rows of every collection fetched once, written with plain Dexie (another origin);
 * 3. sign in → first_page_ms and mirror_ms (every collection: transactions, reimbursements, approvals, refs);
 * 4. local search in the worker vs online search on loopback, same 200 queries;
 * 5. cold_start_first_page_ms: offline reload served by the service worker and the mirror;
 * 6. bulk_code_local_ms / bulk_code_acked_ms for 10,000 transactions;
 * 7. reimbursements_first_page_ms (navigation to /reimbursements → first row) and
 *    reimbursement_search_p95_ms (the worker's took_ms over claim queries);
 * 8. receipt_ocr_ms / receipt_ocr_p95_ms over the generated receipts (bench/ocr.ts);
 * 9. search_ready_ms: an offline reload → the text search answers a many-hit query in full;
 * 6c. export_csv_100k_ms: the worker's CSV export of every transaction (its took_ms);
 * 6b. report_ms (a month × department report, median of 5 after one) and report_after_bulk_ms
 *     (month × GL account, the first report after the bulk coding);
 * 10. bill_bulk_mark_paid_ms: 50 approved bills marked paid in one bulk call (the bulk limit),
 *     and bill_bulk_mark_paid_mirrored_ms: from the call to all 50 PAID in the page's mirror.
 * 11. issue 28: requests_first_row_ms, purchase_orders_first_row_ms and purchase_order_page_ms, each
 *     page opened by URL → its first row or line (median of 3; bench/procurement.ts), last.
 * Besides, before the browser starts: change_feed_rows_per_s and server_page_rps / _p99_ms
 * (bench/server-load.ts), then flight_search_p95_ms (100 sequential searches, bench/flight-search-load.ts); worker_heap_mb after the search passes; and, after the rest, the
 * keyset pages on PostgreSQL (server_page_pg_*) when it answers.
 *
 * The server is seeded with N transactions, M generated reimbursements and B bills (default N/5 each) and
 * receipts for ≈65 % of the card transactions older than a week (server/seed/receipts.ts).
 */
import { cpus } from 'node:os';
import { BULK_BILL_LIMIT } from '../schema/bill-rules.ts';
import { SYNC_BATCH_DEFAULT } from '../schema/constants.ts';
import { DEFAULT_PG_ADMIN_URL, startTestServer, type TestServer } from '../server/testing.ts';
import { apiSignIn } from '../tests/support/api.ts';
import { launchBrowser, waitForServiceWorkerControl, waitForSyncStatus, type BrowserSession } from '../tests/support/browser.ts';
import { bulkLockCards, installProbe, localCollectionSearch, localSearch, navigateToFirstRow, reportTimes, exportAllCsv, waitForHook } from './app-probe.ts';
import { mainJsGzipKb, scriptList } from './bundle-size.ts';
import { BENCH_CARDS, countReceipts, countTrips, countVisible, issueFleet } from './fixtures.ts';
import { apiFlightSearch, measureFlightSearch } from './flight-search-load.ts';
import type { BenchOptions, BenchResults, Metrics } from './metrics.ts';
import { measureReceiptOcr } from './ocr.ts';
import {
  ADMIN, bulkMarkBillsPaid, chromiumVersion, measureBulkCode, measureColdStart, measureFirstMirror, mirrorLimitMs, onlineSearch, totalMismatches,
} from './phases.ts';
import { buildQueries, buildReimbursementQueries } from './queries.ts';
import { recordApiRequests, summarise } from './network.ts';
import { measureSearchReady, searchReadyQuery } from './search-ready.ts';
import { DEFAULT_LOAD_SECONDS, measureChangeFeed, measureKeysetPages, measureKeysetPagesOnPg, PAGE_CLIENTS } from './server-load.ts';
import { countByCollection, fetchMirrorRows, measureRawIdbPut } from './raw-idb.ts';
import { measureProcurementPages } from './procurement.ts';
import { percentile, roundMs } from './stats.ts';
import { workerHeap } from './worker-cdp.ts';

/** tests/e2e/bench-smoke.test.ts reads the optional metrics here. */
export { OPTIONAL_METRICS } from './metrics.ts';

/** Issue 27: sequential flight searches after the keyset pages (flight_search_p95_ms). */
const FLIGHT_SEARCHES = 100;

/** Issue 12's report goals: a month × department spend report, and month × GL account after a bulk coding. */
const MONTH_BY_DEPARTMENT = { collection: 'transactions', time_grain: 'month', dimension: 'department', measure: 'sum' };
const MONTH_BY_GL_ACCOUNT = { collection: 'transactions', time_grain: 'month', dimension: 'gl_account', measure: 'sum' };

export async function runBenchmark(opts: BenchOptions): Promise<BenchResults> {
  const results = await runOnPglite(opts);
  // After the PGlite server and the browser are closed: seeding PostgreSQL must not overlap them.
  const adminUrl = opts.pgAdminUrl === undefined ? DEFAULT_PG_ADMIN_URL : opts.pgAdminUrl;
  const pg = adminUrl === null
    ? { load: null, detail: 'not measured: no PostgreSQL URL given' }
    : await measureKeysetPagesOnPg(adminUrl, { transactions: opts.transactions, reimbursements: opts.reimbursements }, ADMIN, {
      seconds: opts.loadSeconds, log: opts.log,
    });
  if (pg.load) {
    results.metrics.server_page_pg_rps = pg.load.rps;
    results.metrics.server_page_pg_p99_ms = pg.load.p99Ms;
    results.details.server_page_pg_requests = pg.load.requests;
    results.details.server_page_pg_p50_ms = pg.load.p50Ms;
  }
  results.details.server_page_pg = pg.detail;
  return results;
}

async function runOnPglite(opts: BenchOptions): Promise<BenchResults> {
  const { log } = opts;
  const startedAt = new Date().toISOString();
  const bundle = await mainJsGzipKb(opts.distDir);
  log(`first-load scripts (${bundle.files.length}, entry ${bundle.file}): ${bundle.kb} KiB gzip`);

  log(`starting the server with ${opts.transactions} transactions, ${opts.reimbursements} reimbursements, ${opts.bills} bills and receipts (seeding is not timed)`);
  const server = await startTestServer({
    transactions: opts.transactions, reimbursements: opts.reimbursements, bills: opts.bills, receipts: true, serveDist: true,
  });
  let browser: BrowserSession | null = null;
  try {
    const setup = await prepareServer(server, opts);
    browser = await launchBrowser({ baseURL: server.url });
    await installProbe(browser.context);
    const version = browser.context.browser()?.version() ?? (await chromiumVersion());
    const measured = await browserPhases(browser, server, setup, opts);
    return {
      transactions: opts.transactions,
      reimbursements: opts.reimbursements,
      bills: opts.bills,
      started_at: startedAt,
      environment: { node: process.version, chromium: `Chromium ${version}`, platform: `${process.platform}-${process.arch}`, cpus: cpus().length },
      metrics: metricsOf(bundle, setup, measured),
      details: detailsOf(bundle, setup, measured),
    };
  } finally {
    await browser?.close();
    await server.close();
  }
}

type Bundle = Awaited<ReturnType<typeof mainJsGzipKb>>;
type Setup = Awaited<ReturnType<typeof prepareServer>>;
type Measured = Awaited<ReturnType<typeof browserPhases>>;

/** Before the browser starts (untimed but for the change feed and the keyset pages): the fleet, the expected counts, the queries. */
async function prepareServer(server: TestServer, opts: BenchOptions) {
  const { log } = opts;
  const api = await apiSignIn(server.url, ADMIN.email, ADMIN.password);
  log(`issuing ${BENCH_CARDS} cards through the API (untimed; the first mirror then carries them)`);
  const fleet = await issueFleet(api, server.db, server.businessId, BENCH_CARDS);
  const expected = await countVisible(server.db, server.businessId);
  const queries = await buildQueries(server.db, server.businessId);
  const claimQueries = await buildReimbursementQueries(server.db, server.businessId);
  const seededReceipts = await countReceipts(server.db, server.businessId);
  log('change feed: one full pull from zero over HTTP');
  const feedPull = await measureChangeFeed(server.url, api.token);
  log(`keyset pages on PGlite (${PAGE_CLIENTS} clients, ${opts.loadSeconds ?? DEFAULT_LOAD_SECONDS} s)`);
  const pages = await measureKeysetPages(server.url, api.token, { seconds: opts.loadSeconds });
  log(`flight search (${FLIGHT_SEARCHES} sequential searches as the admin)`);
  const flights = await measureFlightSearch(apiFlightSearch(api), FLIGHT_SEARCHES);
  const trips = await countTrips(server.db, server.businessId);
  return { api, fleet, expected, queries, claimQueries, seededReceipts, feedPull, pages, flights, trips };
}

/** The phases in the browser, in the order of the header's list. */
async function browserPhases(browser: BrowserSession, server: TestServer, setup: Setup, opts: BenchOptions) {
  const { log } = opts;
  const { api, fleet, expected, queries, claimQueries } = setup;
  const port = Number(new URL(server.url).port);

  log('raw IndexedDB floor');
  const rows = await fetchMirrorRows(api, SYNC_BATCH_DEFAULT);
  const rawRows = countByCollection(rows);
  const rawMs = await measureRawIdbPut(browser.context, port, rows, SYNC_BATCH_DEFAULT);
  rows.length = 0;

  log('first mirror');
  const mirrorNet = recordApiRequests(browser.context);
  const mirror = await measureFirstMirror(browser, expected, mirrorLimitMs(opts.transactions));
  mirrorNet.stop();
  const signInReq = summarise(mirrorNet.requests, '/v1/public/sign-in');
  const feed = summarise(mirrorNet.requests, '/v1/auth/sync/changes');
  await waitForServiceWorkerControl(browser.page);
  await waitForHook(browser.page);
  await waitForSyncStatus(browser.page, 'All changes synced', 120_000);

  // The first pass also waits for the worker to load the mirror into its engine (after the
  // reload above, if any) and finishes the background text indexing: it is reported as a
  // detail; the metric is the second pass, the steady state a user types into.
  log(`local search (${queries.length} queries in the worker, one warm-up pass)`);
  const warmStart = Date.now();
  const warm = await localSearch(browser.page, queries);
  const warmMs = Date.now() - warmStart;
  const local = await localSearch(browser.page, queries);
  log('reports in the worker (month × department over every transaction)');
  const reports = await reportTimes(browser.page, MONTH_BY_DEPARTMENT, 6);
  log('data worker heap (after a forced GC)');
  const heap = await workerHeap(browser.page);
  log('online search (same queries, POST /v1/auth/transactions/search)');
  const online = await onlineSearch(api, queries);
  const mismatches = totalMismatches(queries, local.totals, online.totals);
  const zeroHits = queries.filter((_, i) => local.totals[i] === 0);
  if (zeroHits.length) log(`${zeroHits.length} queries find nothing locally, e.g. ${JSON.stringify(zeroHits.slice(0, 8))}`);
  if (mismatches.length) {
    log(`${mismatches.length} queries count differently locally and online, e.g. ${JSON.stringify(mismatches.slice(0, 5))}`);
  }

  log('cold start offline');
  const coldMs = await measureColdStart(browser);

  log('bulk coding');
  const bulkNet = recordApiRequests(browser.context);
  const bulk = await measureBulkCode(browser, server.db, server.businessId);
  bulkNet.stop();
  const bulkReq = summarise(bulkNet.requests, '/v1/auth/accounting/coding/bulk-update');
  const [reportAfterBulk] = await reportTimes(browser.page, MONTH_BY_GL_ACCOUNT, 1);
  log('CSV export of every transaction in the worker');
  const csv = await exportAllCsv(browser.page);
  if (csv.rows !== expected.transactions) throw new Error(`the export wrote ${csv.rows} rows of ${expected.transactions}`);

  log(`reimbursements: first page after navigation, local search (${claimQueries.length} queries, one warm-up pass)`);
  const reimbursementsFirstPageMs = await navigateToFirstRow(browser.page, '/reimbursements', '[role="grid"] .reimb-row[aria-rowindex="2"]', 60_000);
  await localCollectionSearch(browser.page, 'reimbursements', claimQueries);
  const claimSearch = await localCollectionSearch(browser.page, 'reimbursements', claimQueries);

  log(`bulk lock of ${fleet.length} cards`);
  const lockNet = recordApiRequests(browser.context);
  const lock = await bulkLockCards(browser.page, fleet, 300_000);
  lockNet.stop();
  const lockReq = summarise(lockNet.requests, '/v1/auth/cards/bulk_lock');
  const locked = await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE id = ANY($1::uuid[]) AND status = 'LOCKED'`, [fleet]);
  if (Number(locked[0]?.n) !== fleet.length) throw new Error(`bulk lock acknowledged but the server has ${locked[0]?.n} of ${fleet.length} locked`);

  log(`bulk mark-paid of ${BULK_BILL_LIMIT} approved bills`);
  const markPaid = await bulkMarkBillsPaid(browser.page, api, server.db, server.businessId);

  log('receipt OCR');
  const ocr = await measureReceiptOcr(browser, opts.distDir, log);

  const readyQuery = searchReadyQuery(queries, local.totals, online.totals);
  log(`search ready after an offline reload (${JSON.stringify(readyQuery)})`);
  const ready = await measureSearchReady(browser, api, readyQuery);

  log('Requests, Purchase orders and a PO page, each opened by URL (median of 3)');
  const procurement = await measureProcurementPages(browser.page, server.db, server.businessId);

  return {
    rawRows, rawMs, mirror, signInReq, feed, warm, warmMs, local, reports, heap, online, mismatches, coldMs, bulk, bulkReq, reportAfterBulk,
    csv, reimbursementsFirstPageMs, claimSearch, lock, lockReq, markPaid, ocr, readyQuery, ready, procurement,
  };
}

function metricsOf(bundle: Bundle, { feedPull, pages, flights }: Setup, m: Measured): Metrics {
  const {
    rawMs, mirror, local, online, coldMs, bulk, reimbursementsFirstPageMs, claimSearch, lock, markPaid, heap, reports, reportAfterBulk, csv, ready, ocr,
    procurement,
  } = m;
  return {
    mirror_ms: roundMs(mirror.mirrorMs),
    raw_idb_put_ms: roundMs(rawMs),
    first_page_ms: roundMs(mirror.firstPageMs),
    local_search_p50_ms: roundMs(percentile(local.worker, 50)),
    local_search_p95_ms: roundMs(percentile(local.worker, 95)),
    online_search_p50_ms: roundMs(percentile(online.times, 50)),
    online_search_p95_ms: roundMs(percentile(online.times, 95)),
    cold_start_first_page_ms: roundMs(coldMs),
    bulk_code_local_ms: roundMs(bulk.local_ms),
    bulk_code_acked_ms: roundMs(bulk.acked_ms),
    select_all_matching_ms: roundMs(bulk.matchingIdsMs),
    main_js_gzip_kb: bundle.kb,
    receipt_ocr_ms: ocr.receipt_ocr_ms,
    receipt_ocr_p95_ms: ocr.receipt_ocr_p95_ms,
    reimbursements_first_page_ms: roundMs(reimbursementsFirstPageMs),
    reimbursement_search_p50_ms: roundMs(percentile(claimSearch.worker, 50)),
    reimbursement_search_p95_ms: roundMs(percentile(claimSearch.worker, 95)),
    card_bulk_lock_local_ms: roundMs(lock.local_ms),
    card_bulk_lock_acked_ms: roundMs(lock.acked_ms),
    bill_bulk_mark_paid_ms: roundMs(markPaid.ms),
    bill_bulk_mark_paid_mirrored_ms: roundMs(markPaid.mirroredMs),
    worker_heap_mb: heap.usedMb,
    // The first report also builds the engine's filtered order for the query: a detail.
    report_ms: roundMs(percentile(reports.slice(1), 50)),
    report_after_bulk_ms: roundMs(reportAfterBulk ?? Number.NaN),
    export_csv_100k_ms: roundMs(csv.ms),
    search_ready_ms: roundMs(ready.ms),
    server_page_rps: pages.rps,
    server_page_p99_ms: pages.p99Ms,
    server_page_pg_rps: Number.NaN,
    server_page_pg_p99_ms: Number.NaN,
    change_feed_rows_per_s: feedPull.rowsPerS,
    flight_search_p95_ms: flights.p95Ms,
    requests_first_row_ms: procurement.requests_first_row_ms,
    purchase_orders_first_row_ms: procurement.purchase_orders_first_row_ms,
    purchase_order_page_ms: procurement.purchase_order_page_ms,
  };
}

function detailsOf(bundle: Bundle, { expected, fleet, claimQueries, seededReceipts, feedPull, pages, flights, trips }: Setup, m: Measured): BenchResults['details'] {
  const {
    rawRows, markPaid, lockReq, claimSearch, local, warm, warmMs, mismatches, bulk, signInReq, feed, bulkReq, reports, csv, heap, readyQuery, ready, ocr,
    procurement,
  } = m;
  return {
    main_js_file: bundle.file,
    main_js_files: scriptList(bundle.files),
    mirrored_rows: Object.values(rawRows).reduce((a, b) => a + b, 0),
    mirrored_transactions: expected.transactions,
    mirrored_reimbursements: expected.reimbursements,
    mirrored_approvals: expected.approvals,
    mirrored_cards: expected.cards,
    mirrored_bills: expected.bills,
    seeded_trips: trips.trips,
    seeded_trip_links: trips.links,
    bill_bulk_mark_paid_bills: markPaid.count,
    card_bulk_lock_cards: fleet.length,
    card_bulk_lock_requests: lockReq.count,
    mirrored_reference_rows: Object.entries(rawRows)
      .filter(([c]) => !['transactions', 'reimbursements', 'approvals', 'cards', 'card_requests'].includes(c))
      .reduce((a, [, n]) => a + n, 0),
    raw_idb_rows: Object.entries(rawRows).map(([c, n]) => `${c} ${n}`).join(', '),
    seeded_receipts: seededReceipts.n,
    seeded_receipt_bytes: seededReceipts.bytes,
    reimbursement_search_queries: claimQueries.length,
    reimbursement_search_zero_hit_queries: claimSearch.totals.filter((t) => t === 0).length,
    local_search_roundtrip_p50_ms: roundMs(percentile(local.roundTrip, 50)),
    local_search_roundtrip_p95_ms: roundMs(percentile(local.roundTrip, 95)),
    local_search_first_pass_p95_ms: roundMs(percentile(warm.worker, 95)),
    local_search_first_pass_wall_ms: warmMs,
    local_search_zero_hit_queries: local.totals.filter((t) => t === 0).length,
    search_count_mismatches: mismatches.length,
    bulk_code_ids: bulk.affected,
    sign_in_request_ms: roundMs(signInReq.totalMs),
    feed_requests: feed.count,
    feed_request_ms_total: roundMs(feed.totalMs),
    bulk_code_requests: bulkReq.count,
    bulk_code_matching_ids_ms: bulk.matchingIdsFirstMs,
    bulk_code_request_sent_after_call_ms: bulkReq.first ? roundMs(bulkReq.first.start - bulk.called_at) : Number.NaN,
    bulk_code_request_ms: roundMs(bulkReq.totalMs),
    report_first_ms: roundMs(reports[0] ?? Number.NaN),
    export_csv_rows: csv.rows,
    export_csv_mb: Math.round((csv.bytes / 2 ** 20) * 10) / 10,
    worker_heap_before_gc_mb: heap.beforeGcMb,
    worker_heap_total_mb: heap.totalMb,
    search_ready_query: readyQuery,
    search_ready_total: ready.total,
    search_ready_calls: ready.calls,
    search_ready_first_row_ms: roundMs(ready.firstRowMs),
    change_feed_rows: feedPull.rows,
    change_feed_requests: feedPull.requests,
    change_feed_ms: feedPull.ms,
    change_feed_wire_bytes: feedPull.wireBytes,
    server_page_requests: pages.requests,
    server_page_p50_ms: pages.p50Ms,
    server_page_seconds: pages.seconds,
    server_page_deepest_page: pages.deepestPage,
    flight_search_requests: flights.requests,
    flight_search_p50_ms: flights.p50Ms,
    flight_search_max_ms: flights.maxMs,
    flight_search_offers_per_search: flights.offersPerSearch,
    procurement_page_samples_ms: procurement.samples,
    search_timing: 'local: QueryResult.took_ms measured inside the data worker; online: Node fetch round trip on loopback',
    ...ocr.details,
  };
}
