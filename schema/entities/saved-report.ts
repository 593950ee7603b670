import { z } from 'zod';
import { reportQueryBaseSchema } from '../report-query.ts';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * A saved report (issue 12): a named report query with the chart it is drawn as. Reference data
 * of the mirror (the shared `refs` collection: no slot of its own in the 13-collection budget), so
 * a saved report opens offline. Visibility `self`: each user sees only their own. The query is
 * stored as asked (the server checks it with reportQuerySchema before saving).
 */
const REPORT_CHARTS = ['line', 'bar', 'table'] as const;
export const reportChartSchema = z.enum(REPORT_CHARTS);
export type ReportChart = z.infer<typeof reportChartSchema>;

const MAX_REPORT_NAME_LENGTH = 120;
export const reportNameSchema = z.string().trim().min(1).max(MAX_REPORT_NAME_LENGTH);

export const savedReportSchema = z.object({
  id: uuid,
  name: reportNameSchema,
  query: reportQueryBaseSchema,
  chart: reportChartSchema,
  owner_id: uuid,
  created_at: isoDateTime,
  ...mirroredFields,
});
export type SavedReport = z.infer<typeof savedReportSchema>;

/** Table `saved_reports`. */
export const savedReportEntity = defineReference({
  name: 'saved_reports', schema: savedReportSchema, visibility: 'self', searchText: ['name'],
});
