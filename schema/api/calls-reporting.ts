import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { callGroup } from './call-group.ts';
import { REPORT_COLLECTIONS, reportQuerySchema, reportResultSchema } from '../reports.ts';
import { transactionFilterSchema, transactionSortSchema } from '../transaction-query.ts';
import { reportChartSchema, reportNameSchema, savedReportSchema } from '../entities/saved-report.ts';
import { dashboardItemSchema, dashboardSchema, MAX_DASHBOARD_ITEMS } from '../entities/dashboard.ts';

/**
 * §7 Reporting (issue 12). `generate-report-from-query` answers from the server what the worker
 * computes over the mirror (schema/reports.ts), for the caller's visible rows only (an employee's
 * report covers their own spend).
 */
const lowRisk = { scopes: ['default', 'low-risk'] } as const;
const scopes = { scopes: ['default'] } as const;
/** The reporting calls: under /v1/auth/reporting, any member (each sees and saves their own). */
const reporting = callGroup('/v1/auth/reporting', scopes);

export const generateReport = reporting('reporting.generateReport', 'POST', '/generate-report-from-query', {
  auth: lowRisk,
  body: reportQuerySchema,
  response: reportResultSchema,
});

/** At most this many ids per delete. */
const MAX_REPORTING_DELETE = 100;
const deleteBody = z.object({ ids: z.array(z.uuid()).min(1).max(MAX_REPORTING_DELETE) });
const deleteResponse = z.object({ deleted: z.number().int().nonnegative(), change_seq: z.number().int().nonnegative() });
/** Reports and dashboards are deleted alike: DELETE /<kind> with the caller's ids (all or none). */
const deleteSaved = <const Id extends string>(id: Id, kind: string) =>
  reporting(id, 'DELETE', `/${kind}`, { body: deleteBody, response: deleteResponse });

/**
 * Saves a report: a new one (201; `id` optional, a client id for offline creates) or the caller's
 * own by `id` (200). Another user's or business's id is 404.
 */
export const saveReportBodySchema = z.object({
  id: z.uuid().optional(),
  name: reportNameSchema,
  query: reportQuerySchema,
  chart: reportChartSchema,
});
export type SaveReportBody = z.infer<typeof saveReportBodySchema>;

export const saveReport = reporting('reporting.reports.save', 'POST', '/reports', {
  body: saveReportBodySchema,
  response: savedReportSchema,
});

/** Deletes the caller's reports (all or none) and takes them off the caller's dashboards. */
export const deleteReports = deleteSaved('reporting.reports.delete', 'reports');

/** A dashboard's reports must be the caller's own (404 otherwise), each at most once. */
export const saveDashboardBodySchema = z.object({
  id: z.uuid().optional(),
  name: reportNameSchema,
  items: z.array(dashboardItemSchema).max(MAX_DASHBOARD_ITEMS),
});
export type SaveDashboardBody = z.infer<typeof saveDashboardBodySchema>;

export const saveDashboard = reporting('reporting.dashboards.save', 'POST', '/dashboards', {
  body: saveDashboardBodySchema,
  response: dashboardSchema,
});

export const deleteDashboards = deleteSaved('reporting.dashboards.delete', 'dashboards');

/**
 * CSV exports answered by the server for large tables: `text/csv; charset=utf-8` as an attachment,
 * streamed page by page; the columns are schema/exports.ts's. Read-only POSTs (the filter is the
 * body): no Idempotency-Key, nothing stored. Not §6 low-risk calls: a whole table leaves the
 * product, so a low-risk token may not export.
 */
export const exportTransactions = defineCall({
  id: 'transactions.exportAsFile',
  method: 'POST',
  path: '/v1/auth/transactions/export_as_file',
  auth: scopes,
  readOnly: true,
  body: z.object({
    filters: transactionFilterSchema.default({}),
    sort: transactionSortSchema.default('occurred_desc'),
  }),
  response: z.string(),
});

/** `filters` is the table filter of `collection` (as its list and the worker's table take it). */
export const exportAsFile = reporting('reporting.exportAsFile', 'POST', '/export-as-file', {
  readOnly: true,
  body: z.object({
    collection: z.enum(REPORT_COLLECTIONS),
    filters: z.record(z.string(), z.unknown()).optional(),
  }),
  response: z.string(),
});

export const REPORTING_CALLS = [
  generateReport, saveReport, deleteReports, saveDashboard, deleteDashboards, exportTransactions, exportAsFile,
] as const;
