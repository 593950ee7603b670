import { z } from 'zod';
import { defineCall, uploadBodySchema } from './define-call.ts';
import {
  HRIS_DEFAULT_ROLES, HRIS_MODES, HRIS_PROVIDERS, MAX_HRIS_FILE_BYTES, hrisDiffSchema, hrisRowErrorSchema,
} from '../hris.ts';

/**
 * Issue 32: the HRIS connection (§7 "HRIS (DELETE hris/connection)"; docs/design/issue-32-hris.md):
 * people, departments, managers and locations imported from a CSV file, uploaded here or dropped in
 * the server's watched folder, shown as a diff and applied on review. Managed by admins and IT admins
 * (`canManageIntegrations`). Listed in HRIS_CALLS; the catalogue (calls.ts) includes them.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/hris';

export const hrisConnectionBodySchema = z.object({
  provider: z.enum(HRIS_PROVIDERS),
  mode: z.enum(HRIS_MODES),
  invite_new_hires: z.boolean(),
  suspend_leavers: z.boolean(),
  /** Drop mode only: a dropped file's diff is applied at once instead of waiting for review. */
  auto_apply: z.boolean().default(false),
  default_role: z.enum(HRIS_DEFAULT_ROLES).default('BUSINESS_USER'),
});
export type HrisConnectionBody = z.input<typeof hrisConnectionBodySchema>;

export const hrisConnectionSchema = z.object({
  provider: z.enum(HRIS_PROVIDERS),
  mode: z.enum(HRIS_MODES),
  invite_new_hires: z.boolean(),
  suspend_leavers: z.boolean(),
  auto_apply: z.boolean(),
  default_role: z.enum(HRIS_DEFAULT_ROLES),
  /** The folder to drop files in, under the server's HRIS_DROP_DIR (drop mode; null otherwise). */
  drop_folder: z.string().nullable(),
  /** Whether this server watches a drop directory at all (HRIS_DROP_DIR set). */
  drop_watching: z.boolean(),
  connected_by: z.object({ id: z.uuid(), name: z.string() }),
  updated_at: z.string(),
});
export type HrisConnection = z.infer<typeof hrisConnectionSchema>;

const importStatusSchema = z.enum(['invalid', 'ready', 'applied', 'stale']);
export const hrisImportSummarySchema = z.object({
  id: z.uuid(),
  source: z.enum(['upload', 'drop']),
  file_name: z.string(),
  status: importStatusSchema,
  row_count: z.number().int().nonnegative(),
  error_count: z.number().int().nonnegative(),
  counts: z.object({
    new_hires: z.number().int(), changes: z.number().int(), leavers: z.number().int(),
    departments: z.number().int(), locations: z.number().int(),
  }).nullable(),
  created_at: z.string(),
  applied_at: z.string().nullable(),
});
export type HrisImportSummary = z.infer<typeof hrisImportSummarySchema>;
export const hrisImportSchema = hrisImportSummarySchema.extend({
  provider: z.string(),
  errors: z.array(hrisRowErrorSchema),
  diff: hrisDiffSchema.nullable(),
});
export type HrisImport = z.infer<typeof hrisImportSchema>;

export const getHrisConnection = defineCall({
  id: 'hris.connection.get', method: 'GET', path: `${BASE}/connection`, auth: scopes,
  response: z.object({ connection: hrisConnectionSchema.nullable() }),
});
export const putHrisConnection = defineCall({
  id: 'hris.connection.put', method: 'PUT', path: `${BASE}/connection`, auth: scopes,
  body: hrisConnectionBodySchema, response: hrisConnectionSchema,
});
/** Disconnects: imports stop; the people the HRIS brought in stay as they are. */
export const deleteHrisConnection = defineCall({
  id: 'hris.connection.delete', method: 'DELETE', path: `${BASE}/connection`, auth: scopes,
  response: z.object({ disconnected: z.literal(true) }),
});
/** A CSV file: parsed and checked whole; the answer holds its errors (status invalid) or its diff (ready). */
export const createHrisImport = defineCall({
  id: 'hris.imports.create', method: 'POST', path: `${BASE}/imports`, auth: scopes,
  query: z.object({ file_name: z.string().trim().min(1).max(200).optional() }),
  body: uploadBodySchema,
  upload: { contentTypes: ['text/csv', 'application/csv', 'application/vnd.ms-excel'], maxBytes: MAX_HRIS_FILE_BYTES },
  response: hrisImportSchema,
});
/** The 50 newest imports, newest first. */
export const listHrisImports = defineCall({
  id: 'hris.imports.list', method: 'GET', path: `${BASE}/imports`, auth: scopes,
  response: z.object({ data: z.array(hrisImportSummarySchema) }),
});
const importParams = z.object({ import_id: z.uuid() });
export const getHrisImport = defineCall({
  id: 'hris.imports.get', method: 'GET', path: `${BASE}/imports/:import_id`, auth: scopes,
  params: importParams, response: hrisImportSchema,
});
/** Applies a ready diff in one transaction; an applied import answers as it is (nothing happens twice). */
export const applyHrisImport = defineCall({
  id: 'hris.imports.apply', method: 'POST', path: `${BASE}/imports/:import_id/apply`, auth: scopes,
  params: importParams, response: hrisImportSchema,
});

export const HRIS_CALLS = [
  getHrisConnection, putHrisConnection, deleteHrisConnection, createHrisImport, listHrisImports, getHrisImport, applyHrisImport,
] as const;
