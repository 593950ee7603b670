import { z } from 'zod';

/**
 * The words of a report query (issue 12), apart from schema/reports.ts so that a mirrored entity
 * can hold a query (saved reports) without an import cycle: reports.ts reads the collection
 * registry (for each collection's filter schema), and the registry lists the saved-report entity.
 * reports.ts re-exports everything here; its `reportQuerySchema` adds the checks that need the
 * registry.
 */

export const REPORT_COLLECTIONS = ['transactions', 'reimbursements', 'bills', 'cards'] as const;
export type ReportCollection = (typeof REPORT_COLLECTIONS)[number];

/** `span`: one bucket over the whole range (§9's default interval). */
export const TIME_GRAINS = ['day', 'week', 'month', 'quarter', 'year', 'span'] as const;
export type TimeGrain = (typeof TIME_GRAINS)[number];

export const REPORT_DIMENSIONS = [
  'none', 'department', 'location', 'merchant', 'gl_account', 'tracking_category', 'user', 'card', 'vendor', 'status',
] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

export const REPORT_MEASURES = ['sum', 'count', 'average'] as const;
export type ReportMeasure = (typeof REPORT_MEASURES)[number];

/** The epoch, §9's default from-date. */
export const REPORT_EPOCH = '1970-01-01';

const isoDay = z.iso.date();

/**
 * A report query without its filters (they are the collection's table filter, checked by
 * `reportFiltersSchema`). `from` and `to` are inclusive UTC dates on the collection's report
 * date; absent, they are the epoch and today.
 */
export const reportQueryBaseSchema = z.object({
  collection: z.enum(REPORT_COLLECTIONS),
  time_grain: z.enum(TIME_GRAINS),
  dimension: z.enum(REPORT_DIMENSIONS),
  measure: z.enum(REPORT_MEASURES),
  /** Which tracking category groups the rows (dimension `tracking_category` only). */
  tracking_category_id: z.uuid().optional(),
  from: isoDay.optional(),
  to: isoDay.optional(),
  filters: z.record(z.string(), z.unknown()).optional(),
});
