import { z } from 'zod';
import { REPORT_DIMENSIONS, REPORT_MEASURES, TIME_GRAINS, type ReportCollection } from '../../../schema/reports.ts';

/**
 * The Reports page's URL state and its parser: the route's (src/router.tsx, in the first load),
 * apart from the page's model (report-model.ts, in the page's chunk), which re-exports it.
 */

export const REPORT_VIEWS = ['transactions', 'reimbursements', 'bills', 'cards'] as const satisfies readonly ReportCollection[];
export type ReportView = (typeof REPORT_VIEWS)[number];

export const RANGES = ['this_month', 'last_month', 'last_90_days', 'this_quarter', 'this_year', 'last_12_months', 'all', 'custom'] as const;
export type RangePreset = (typeof RANGES)[number];

const day = z.iso.date();

/** The page's URL state: each parameter parsed on its own, a bad one dropped (as every list's). */
export const reportsSearchSchema = z.object({
  view: z.enum(REPORT_VIEWS).optional(),
  range: z.enum(RANGES).optional(),
  from: day.optional(),
  to: day.optional(),
  grain: z.enum(TIME_GRAINS).optional(),
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  /** The custom report's grouping and measure. */
  dimension: z.enum(REPORT_DIMENSIONS).optional(),
  measure: z.enum(REPORT_MEASURES).optional(),
  tracking: z.uuid().optional(),
  /** A dashboard shown instead of the overview. */
  dashboard: z.uuid().optional(),
});
export type ReportsSearch = z.infer<typeof reportsSearchSchema>;

export const DEFAULT_RANGE: RangePreset = 'last_12_months';

export function parseReportsSearch(raw: Record<string, unknown>): ReportsSearch {
  const out: Record<string, unknown> = {};
  const shape = reportsSearchSchema.shape as Record<string, z.ZodType>;
  for (const [key, schema] of Object.entries(shape)) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    const parsed = schema.safeParse(String(value));
    if (parsed.success) out[key] = parsed.data;
  }
  if (out.view === 'transactions') delete out.view;
  if (out.range === DEFAULT_RANGE) delete out.range;
  return out as ReportsSearch;
}

