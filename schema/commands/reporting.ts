import { produce } from 'immer';
import { defineCommand, type BlankContext } from './define-command.ts';
import { asTombstone, createWithId, rowCommand } from './row-commands.ts';
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
  name: 'savedReport.save', ...createWithId(saveReportBodySchema), collection: 'saved_reports', call: saveReport,
  apply: (row, a) => produce(row, (d) => {
    d.name = a.name;
    d.query = a.query as SavedReport['query'];
    d.chart = a.chart;
  }),
  blank: (a, ctx) => blankReport({ query: a.query as SavedReport['query'] }, ctx),
  confirm: 'row',
});

/** Deleting one report or dashboard the mirror holds: the call takes a list of ids; the answer is the tombstone's seq. */
const deleteById = <const C extends 'saved_reports' | 'dashboards'>(collection: C) => {
  const row = rowCommand(collection, 'id', 'id');
  return {
    args: row.shared.args, collection, entityIds: row.shared.entityIds,
    request: (a: { id: string }) => ({ body: { ids: [a.id] } }),
    apply: asTombstone, check: row.inMirror, confirm: 'change_seq',
  } as const;
};

export const savedReportDelete = defineCommand({ name: 'savedReport.delete', ...deleteById('saved_reports'), call: deleteReports });

export const dashboardSave = defineCommand({
  name: 'dashboard.save', ...createWithId(saveDashboardBodySchema), collection: 'dashboards',
  // A dashboard names its reports: it waits for an unsent save of any of them (a report saved
  // just before, whose delivery is in backoff, must reach the server before the board that shows it).
  after: (a) => a.items.map((i) => i.report_id),
  call: saveDashboard,
  apply: (row, a) => produce(row, (d) => {
    d.name = a.name;
    d.items = a.items;
  }),
  blank: (_a, ctx) => blankDashboard(ctx),
  confirm: 'row',
});

export const dashboardDelete = defineCommand({ name: 'dashboard.delete', ...deleteById('dashboards'), call: deleteDashboards });
