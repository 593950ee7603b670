import type { Dashboard } from '../../schema/entities/dashboard.ts';
import type { SavedReport } from '../../schema/entities/saved-report.ts';
import { reportQuerySchema, type ReportQuery } from '../../schema/reports.ts';
import type { Queryable } from '../db/db.ts';
import { bulkInsert, cols } from './bulk-insert.ts';
import type { DemoData } from './types.ts';
import { stableUuid } from './vendors.ts';

/**
 * The demo admin's saved reports and one dashboard of them (issue 12), so Reports opens with
 * something to show: spend by department per month, top merchants, and the month-end chase
 * (missing receipts, missing coding). Ids are stable (business + name); queries are checked with
 * reportQuerySchema here, so a seed never stores a report the API would refuse.
 */
const REPORTS: readonly { name: string; chart: SavedReport['chart']; query: ReportQuery; size: 'half' | 'full' }[] = [
  { name: 'Spend by department, monthly', chart: 'bar', size: 'full',
    query: { collection: 'transactions', time_grain: 'month', dimension: 'department', measure: 'sum' } },
  { name: 'Top merchants', chart: 'table', size: 'half',
    query: { collection: 'transactions', time_grain: 'span', dimension: 'merchant', measure: 'sum' } },
  { name: 'Missing receipts', chart: 'line', size: 'half',
    query: { collection: 'transactions', time_grain: 'month', dimension: 'none', measure: 'count', filters: { missing_receipt: true } } },
  { name: 'Missing coding', chart: 'line', size: 'half',
    query: { collection: 'transactions', time_grain: 'month', dimension: 'none', measure: 'count', filters: { missing_coding: true } } },
];

type Mirrored = { change_seq: number; updated_at: string; deleted: boolean };

export function demoReports(data: Pick<DemoData, 'business' | 'accounts'>, afterSeq: number) {
  const admin = data.accounts.find((a) => a.role === 'BUSINESS_ADMIN');
  if (!admin) return { reports: [], dashboards: [], maxChangeSeq: afterSeq };
  const businessId = data.business.id;
  const at = data.business.created_at;
  let seq = afterSeq;
  const reports: (SavedReport & Mirrored)[] = REPORTS.map((r) => ({
    id: stableUuid(`${businessId}:saved-report:${r.name}`), business_id: businessId, owner_id: admin.user_id, name: r.name,
    query: reportQuerySchema.parse(r.query), chart: r.chart, created_at: at, change_seq: ++seq, updated_at: at, deleted: false,
  }));
  const dashboards: (Dashboard & Mirrored)[] = [{
    id: stableUuid(`${businessId}:dashboard:Month end`), business_id: businessId, owner_id: admin.user_id, name: 'Month end',
    items: REPORTS.map((r, i) => ({ report_id: reports[i]!.id, size: r.size })),
    created_at: at, change_seq: ++seq, updated_at: at, deleted: false,
  }];
  return { reports, dashboards, maxChangeSeq: seq };
}

export async function insertReports(tx: Queryable, seeded: ReturnType<typeof demoReports>): Promise<void> {
  const mirrored = ['change_seq:bigint', 'updated_at:timestamptz', 'deleted:boolean'] as const;
  await bulkInsert(tx, 'saved_reports', cols(
    'id:uuid', 'business_id:uuid', 'owner_id:uuid', 'name:text', 'query:jsonb', 'chart:text', 'created_at:timestamptz', ...mirrored,
  ), seeded.reports);
  await bulkInsert(tx, 'dashboards', cols(
    'id:uuid', 'business_id:uuid', 'owner_id:uuid', 'name:text', 'items:jsonb', 'created_at:timestamptz', ...mirrored,
  ), seeded.dashboards);
}
