import { z } from 'zod';
import { produce } from 'immer';
import { allInMirror, defineCommand, type BlankContext } from './define-command.ts';
import { deleteDashboards, deleteReports, saveDashboard, saveDashboardBodySchema, saveReport, saveReportBodySchema } from '../api/calls-reporting.ts';
import type { Dashboard } from '../entities/dashboard.ts';
import type { SavedReport } from '../entities/saved-report.ts';

/**
 * Saved reports and dashboards (issue 12), saved and deleted through the outbox, so a finance
 * lead arranges them on a plane too. They are reference data (`refs`), shown with these commands
 * applied (workers/rebase.ts). A save carries the id (a client id for a new one): the row shows
 * at once (`blank`), and the server creates or updates under it (server/domain/reporting/saved.ts).
 * A delete answers the change seq of its tombstone. Deleting a report takes it off the owner's
 * dashboards on the server; until the feed brings those back, dashboards skip missing reports.
 */

const blankReport = (a: { query: SavedReport['query'] }, { id, actor, at }: BlankContext): SavedReport => ({
  id, name: '', query: a.query, chart: 'line', owner_id: actor.user_id, created_at: at,
  business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
});

const blankDashboard = ({ id, actor, at }: BlankContext): Dashboard => ({
  id, name: '', owner_id: actor.user_id, items: [], created_at: at, business_id: actor.business_id, change_seq: 0, updated_at: at, deleted: false,
});


export const savedReportSave = defineCommand({
  name: 'savedReport.save',
  args: saveReportBodySchema.extend({ id: z.uuid() }),
  collection: 'saved_reports',
  entityIds: (a) => [a.id],
  call: saveReport,
  request: (a) => ({ body: a }),
  apply: (row, a) => produce(row, (d) => {
    d.name = a.name;
    d.query = a.query as SavedReport['query'];
    d.chart = a.chart;
  }),
  blank: (a, ctx) => blankReport({ query: a.query as SavedReport['query'] }, ctx),
  confirm: 'row',
});

export const savedReportDelete = defineCommand({
  name: 'savedReport.delete',
  args: z.object({ id: z.uuid() }),
  collection: 'saved_reports',
  entityIds: (a) => [a.id],
  call: deleteReports,
  request: (a) => ({ body: { ids: [a.id] } }),
  apply: (row) => produce(row, (d) => {
    d.deleted = true;
  }),
  check: (a, mirror) => allInMirror([a.id], mirror),
  confirm: 'change_seq',
});

export const dashboardSave = defineCommand({
  name: 'dashboard.save',
  args: saveDashboardBodySchema.extend({ id: z.uuid() }),
  collection: 'dashboards',
  entityIds: (a) => [a.id],
  // A dashboard names its reports: it waits for an unsent save of any of them (a report saved
  // just before, whose delivery is in backoff, must reach the server before the board that shows it).
  after: (a) => a.items.map((i) => i.report_id),
  call: saveDashboard,
  request: (a) => ({ body: a }),
  apply: (row, a) => produce(row, (d) => {
    d.name = a.name;
    d.items = a.items;
  }),
  blank: (_a, ctx) => blankDashboard(ctx),
  confirm: 'row',
});

export const dashboardDelete = defineCommand({
  name: 'dashboard.delete',
  args: z.object({ id: z.uuid() }),
  collection: 'dashboards',
  entityIds: (a) => [a.id],
  call: deleteDashboards,
  request: (a) => ({ body: { ids: [a.id] } }),
  apply: (row) => produce(row, (d) => {
    d.deleted = true;
  }),
  check: (a, mirror) => allInMirror([a.id], mirror),
  confirm: 'change_seq',
});
