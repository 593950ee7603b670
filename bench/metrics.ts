/**
 * What one benchmark run reports (bench/measure.ts fills it; report.ts, cost-curve.ts and
 * results-file.ts read it): the metrics held to goals, the run's description and its details.
 */

export interface Metrics {
  mirror_ms: number;
  raw_idb_put_ms: number;
  first_page_ms: number;
  local_search_p50_ms: number;
  local_search_p95_ms: number;
  online_search_p50_ms: number;
  online_search_p95_ms: number;
  cold_start_first_page_ms: number;
  bulk_code_local_ms: number;
  bulk_code_acked_ms: number;
  /** Issue 33: "select all matching" (about 10,000 ids of the newest days) once the engine answers, page to worker and back. */
  select_all_matching_ms: number;
  main_js_gzip_kb: number;
  receipt_ocr_ms: number;
  receipt_ocr_p95_ms: number;
  reimbursements_first_page_ms: number;
  reimbursement_search_p50_ms: number;
  reimbursement_search_p95_ms: number;
  card_bulk_lock_local_ms: number;
  card_bulk_lock_acked_ms: number;
  bill_bulk_mark_paid_ms: number;
  bill_bulk_mark_paid_mirrored_ms: number;
  worker_heap_mb: number;
  /** Issue 12: a month × department report over every transaction, in the worker (median of 5). */
  report_ms: number;
  /** The first month × GL account report after the 10,000-row bulk coding: a full re-aggregation. */
  report_after_bulk_ms: number;
  /** Issue 12's key: the worker's CSV export of every transaction (100k in the issue's goal run). */
  export_csv_100k_ms: number;
  search_ready_ms: number;
  server_page_rps: number;
  server_page_p99_ms: number;
  /** NaN (null in JSON) when PostgreSQL does not answer: details.server_page_pg says why. */
  server_page_pg_rps: number;
  server_page_pg_p99_ms: number;
  change_feed_rows_per_s: number;
  /** Issue 27: p95 of 100 sequential flight searches on the seeded server (PGlite), over HTTP. */
  flight_search_p95_ms: number;
  /** Issue 28 (bench/procurement.ts): /requests (Team tab) opened by URL → its first row, as the admin (median of 3). */
  requests_first_row_ms: number;
  /** /purchase-orders opened by URL → its first row (median of 3). */
  purchase_orders_first_row_ms: number;
  /** A PO page (the seed's PO-000001) opened by URL → its first line shown (median of 3). */
  purchase_order_page_ms: number;
}

/** Metrics that may be missing (NaN; null in the JSON) when their service is not there. */
export const OPTIONAL_METRICS: ReadonlySet<keyof Metrics> = new Set(['server_page_pg_rps', 'server_page_pg_p99_ms']);

export interface BenchResults {
  transactions: number;
  /** Generated reimbursements seeded (besides the demo's hand-made claims). */
  reimbursements: number;
  /** Generated bills seeded (absent in runs before issue 11's bills). */
  bills?: number;
  started_at: string;
  environment: { node: string; chromium: string; platform: string; cpus: number };
  metrics: Metrics;
  /** Figures that explain the metrics (not held to goals). */
  details: Record<string, number | string>;
}

export interface BenchOptions {
  transactions: number;
  reimbursements: number;
  bills: number;
  distDir: string;
  log: (msg: string) => void;
  /** Seconds of each keyset-page load (default DEFAULT_LOAD_SECONDS). */
  loadSeconds?: number;
  /** PostgreSQL admin URL for server_page_pg_*; null: not measured. Default DEFAULT_PG_ADMIN_URL. */
  pgAdminUrl?: string | null;
}
