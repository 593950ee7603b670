import { defineCall } from './define-call.ts';
import { reportQuerySchema, reportResultSchema } from '../reports.ts';

/**
 * §7 Reporting (issue 12). `generate-report-from-query` answers from the server what the worker
 * computes over the mirror (schema/reports.ts), for the caller's visible rows only (an employee's
 * report covers their own spend).
 */
const lowRisk = { scopes: ['default', 'low-risk'] } as const;

export const generateReport = defineCall({
  id: 'reporting.generateReport',
  method: 'POST',
  path: '/v1/auth/reporting/generate-report-from-query',
  auth: lowRisk,
  body: reportQuerySchema,
  response: reportResultSchema,
});

export const REPORTING_CALLS = [generateReport] as const;
