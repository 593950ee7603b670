import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { reportNameSchema } from './saved-report.ts';

/**
 * A dashboard (issue 12): the user's saved reports arranged in order, each half or full width.
 * Reference data of the mirror (`refs`), visibility `self` like the reports it holds; a dashboard
 * names only its owner's reports, and deleting a report takes it off every dashboard.
 */
const DASHBOARD_ITEM_SIZES = ['half', 'full'] as const;
export const MAX_DASHBOARD_ITEMS = 24;

export const dashboardItemSchema = z.object({
  report_id: uuid,
  size: z.enum(DASHBOARD_ITEM_SIZES),
});
export type DashboardItem = z.infer<typeof dashboardItemSchema>;

export const dashboardSchema = z.object({
  id: uuid,
  name: reportNameSchema,
  owner_id: uuid,
  /** In the order they are shown. */
  items: z.array(dashboardItemSchema).max(MAX_DASHBOARD_ITEMS),
  created_at: isoDateTime,
  ...mirroredFields,
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** Table `dashboards`. */
export const dashboardEntity = defineReference({
  name: 'dashboards', schema: dashboardSchema, visibility: 'self', searchText: ['name'],
});
