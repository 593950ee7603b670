/**
 * The benchmark's report: the metrics, the goals issue 2 holds them to (reported, never tuned
 * toward), and a Markdown table that pastes straight into docs/performance.md. The
 * reimbursement metrics (issue 9) have no goal: reported only. `mirror_ms` and its floor cover
 * every mirrored collection. Issue 13's keys: `worker_heap_mb` (goal at 100k and below), the
 * server's keyset pages and change feed, and `search_ready_ms` (reported). Issue 11's bill keys
 * (`bill_bulk_mark_paid_ms`, `_mirrored_ms`): reported. Issue 12's `report_ms` and
 * `report_after_bulk_ms`: goals at 100k. Issue 27's `flight_search_p95_ms`: reported. Issue 28's
 * `requests_first_row_ms`, `purchase_orders_first_row_ms` and `purchase_order_page_ms`: reported.
 */
import type { BenchResults, Metrics } from './metrics.ts';

export interface Goal {
  label: string;
  /** Whether the goal is met at `transactions`; null when it cannot be judged (a metric missing, another scale). */
  met(m: Metrics, transactions: number): boolean | null;
}

const le = (key: keyof Metrics, limit: number): Goal => ({
  label: `≤ ${limit}`,
  met: (m) => (Number.isFinite(m[key]) ? m[key] <= limit : null),
});

export const GOALS: Partial<Record<keyof Metrics, Goal>> = {
  mirror_ms: {
    label: '≤ 1.25 × raw_idb_put_ms',
    met: (m) => m.mirror_ms <= 1.25 * m.raw_idb_put_ms,
  },
  first_page_ms: le('first_page_ms', 1500),
  local_search_p95_ms: {
    label: '≤ 8, and ≥ 20× faster than online p95',
    met: (m) => m.local_search_p95_ms <= 8 && m.online_search_p95_ms >= 20 * m.local_search_p95_ms,
  },
  cold_start_first_page_ms: le('cold_start_first_page_ms', 1000),
  bulk_code_local_ms: le('bulk_code_local_ms', 200),
  bulk_code_acked_ms: le('bulk_code_acked_ms', 5000),
  select_all_matching_ms: le('select_all_matching_ms', 200),
  main_js_gzip_kb: le('main_js_gzip_kb', 250),
  // Issue 12: at 100k transactions (a smaller run must meet them too).
  report_ms: { label: '≤ 50 (at 100k)', met: (m, n) => (n > 100_000 || !Number.isFinite(m.report_ms) ? null : m.report_ms <= 50) },
  report_after_bulk_ms: {
    label: '≤ 100 (at 100k)',
    met: (m, n) => (n > 100_000 || !Number.isFinite(m.report_after_bulk_ms) ? null : m.report_after_bulk_ms <= 100),
  },
  // The issue sets it for 100k; a smaller run must meet it too, a larger one only reports it.
  worker_heap_mb: {
    label: '≤ 200 (at 100k)',
    met: (m, n) => (n > 100_000 || !Number.isFinite(m.worker_heap_mb) ? null : m.worker_heap_mb <= 200),
  },
};

export const METRIC_ORDER: (keyof Metrics)[] = [
  'mirror_ms',
  'raw_idb_put_ms',
  'first_page_ms',
  'local_search_p50_ms',
  'local_search_p95_ms',
  'online_search_p50_ms',
  'online_search_p95_ms',
  'cold_start_first_page_ms',
  'bulk_code_local_ms',
  'bulk_code_acked_ms',
  'select_all_matching_ms',
  'main_js_gzip_kb',
  'receipt_ocr_ms',
  'receipt_ocr_p95_ms',
  'reimbursements_first_page_ms',
  'reimbursement_search_p50_ms',
  'reimbursement_search_p95_ms',
  'card_bulk_lock_local_ms',
  'card_bulk_lock_acked_ms',
  'bill_bulk_mark_paid_ms',
  'bill_bulk_mark_paid_mirrored_ms',
  'worker_heap_mb',
  'report_ms',
  'report_after_bulk_ms',
  'export_csv_100k_ms',
  'search_ready_ms',
  'server_page_rps',
  'server_page_p99_ms',
  'server_page_pg_rps',
  'server_page_pg_p99_ms',
  'change_feed_rows_per_s',
  'flight_search_p95_ms',
  'requests_first_row_ms',
  'purchase_orders_first_row_ms',
  'purchase_order_page_ms',
];

export function formatTable(results: BenchResults, goals = GOALS): string {
  const lines = [
    `Ledgerline benchmark: ${results.transactions} transactions, ${results.reimbursements ?? 0} reimbursements, ${results.started_at}, ${results.environment.chromium}, node ${results.environment.node}`,
    '',
    '| metric | value | goal | met |',
    '|---|---|---|---|',
  ];
  for (const key of METRIC_ORDER) {
    const goal = goals[key];
    const met = goal?.met(results.metrics, results.transactions);
    const verdict = met === undefined || met === null ? '' : met ? 'yes' : 'no';
    lines.push(`| \`${key}\` | ${formatValue(results.metrics[key])} | ${goal?.label ?? ''} | ${verdict} |`);
  }
  return lines.join('\n');
}

/** A metric's value for a table: missing ones (NaN in memory, null in JSON) as "n/a". */
export function formatValue(v: number | null | undefined): string {
  return typeof v === 'number' && Number.isFinite(v) ? String(v) : 'n/a';
}

/** The explanatory figures, one per line, under the table. */
export function formatDetails(results: BenchResults): string {
  return Object.entries(results.details)
    .map(([k, v]) => `- ${k}: ${v}`)
    .join('\n');
}
