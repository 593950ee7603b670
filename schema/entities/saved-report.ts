import { z } from 'zod';
import { reportQueryBaseSchema } from '../report-query.ts';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { MIRRORED_COLUMNS, type ColumnMap } from './columns.ts';

/**
 * A saved report (issue 12): a named report query with the chart it is drawn as. Reference data
 * of the mirror (the shared `refs` collection: no slot of its own in the 13-collection budget), so
 * a saved report opens offline. Visibility `self`: each user sees only their own. The query is
 * stored as asked (the server checks it with reportQuerySchema before saving).
 */
export const REPORT_CHARTS = ['line', 'bar', 'table'] as const;
export const reportChartSchema = z.enum(REPORT_CHARTS);
export type ReportChart = z.infer<typeof reportChartSchema>;

export const MAX_REPORT_NAME_LENGTH = 120;
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
const savedReportColumns: ColumnMap<SavedReport> = {
  id: { type: 'uuid', indexed: true },
  name: { type: 'text' },
  query: { type: 'jsonb' },
  chart: { type: 'text' },
  owner_id: { type: 'uuid' },
  created_at: { type: 'timestamptz' },
  ...MIRRORED_COLUMNS,
};

export const savedReportEntity = defineEntity({
  name: 'saved_reports',
  schema: savedReportSchema,
  idField: 'id',
  mirror: { kind: 'ref', indexes: [] },
  visibility: 'self',
  searchText: ['name'],
  columns: savedReportColumns,
});
