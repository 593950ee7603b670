import { z } from 'zod';
import { defineCall } from './define-call.ts';

/**
 * Issue 32: scheduled SFTP transaction uploads (§7 "customer API clients (… sftp-transaction-uploads/{id})";
 * docs/design/issue-32-sftp.md). An admin or IT admin (`canManageIntegrations`) points Ledgerline
 * at their SFTP server; every day or week (or on "Upload now") a leased job writes
 * `transactions-YYYY-MM-DD.csv` (the transactions CSV export's columns) holding exactly the
 * transactions cleared since the last successful upload. The password or private key is stored
 * encrypted and never answered back (only which one is set). `admin.*`: admin-only.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/sftp-transaction-uploads';

export const SFTP_SCHEDULES = ['daily', 'weekly'] as const;
export const SFTP_AUTH_METHODS = ['password', 'private_key'] as const;
export const SFTP_UPLOAD_STATES = ['queued', 'running', 'done', 'failed', 'canceled'] as const;
/** Destinations a business may have at once. */
export const MAX_SFTP_DESTINATIONS = 5;
export const MAX_PRIVATE_KEY_CHARS = 16_000;

const isoDate = z.iso.datetime({ offset: true });
/** A DNS name or an IP literal: letters, digits, dots, hyphens, colons (IPv6); no scheme, path or port. */
const hostSchema = z.string().trim().min(1).max(253).regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+$|^\[?[0-9A-Fa-f:.]+\]?$/, 'must be a host name or an IP address (no scheme, path or port)');
/** A folder on the server: absolute (/uploads) or relative to the login folder (uploads, .); no `..` segment, no control characters. */
const folderSchema = z.string().trim().min(1).max(500).regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters')
  .refine((f) => !f.split('/').includes('..'), 'must not contain ".."');

const credentialsSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('password'), password: z.string().min(1).max(1000) }),
  z.object({
    method: z.literal('private_key'),
    private_key: z.string().min(1).max(MAX_PRIVATE_KEY_CHARS),
    passphrase: z.string().min(1).max(1000).optional(),
  }),
]);
export type SftpCredentials = z.infer<typeof credentialsSchema>;

const scheduleFields = {
  schedule: z.enum(SFTP_SCHEDULES),
  /** Weekly only: ISO weekday, 1 Monday … 7 Sunday. */
  weekday: z.number().int().min(1).max(7).nullable().optional(),
  /** The hour (UTC) the upload runs. */
  hour_utc: z.number().int().min(0).max(23),
};

export const sftpDestinationBodySchema = z.object({
  name: z.string().trim().min(1).max(80),
  host: hostSchema,
  port: z.number().int().min(1).max(65535).default(22),
  username: z.string().trim().min(1).max(200),
  credentials: credentialsSchema,
  folder: folderSchema,
  ...scheduleFields,
  /** The first upload takes cleared transactions dated on or after this day (default: today). */
  start_date: z.iso.date().optional(),
});
export type SftpDestinationBody = z.input<typeof sftpDestinationBodySchema>;

export const sftpUploadSchema = z.object({
  id: z.uuid(),
  file_name: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  state: z.enum(SFTP_UPLOAD_STATES),
  /** How many transactions the file holds; null until they are chosen. */
  row_count: z.number().int().nonnegative().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: isoDate,
  finished_at: isoDate.nullable(),
});
export type SftpUpload = z.infer<typeof sftpUploadSchema>;

export const sftpDestinationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  /** Which credential is stored; the secret itself is never answered. */
  auth_method: z.enum(SFTP_AUTH_METHODS),
  credentials_set: z.literal(true),
  folder: z.string(),
  schedule: z.enum(SFTP_SCHEDULES),
  weekday: z.number().int().nullable(),
  hour_utc: z.number().int(),
  start_date: z.iso.date(),
  next_run_at: isoDate,
  /** The server's host key fingerprint (SHA256:…) pinned at the first connection; null before it. */
  host_key_fingerprint: z.string().nullable(),
  last_upload: sftpUploadSchema.nullable(),
  created_by: z.object({ id: z.uuid(), name: z.string() }),
  created_at: isoDate,
});
export type SftpDestination = z.infer<typeof sftpDestinationSchema>;

const destinationParams = z.object({ id: z.uuid() });

export const listSftpDestinations = defineCall({
  id: 'admin.sftpUploads.list', method: 'GET', path: BASE, auth: scopes,
  response: z.object({ data: z.array(sftpDestinationSchema) }),
});
/** Adds a destination; its host must resolve to public addresses only (else 422). Nothing connects yet. */
export const createSftpDestination = defineCall({
  id: 'admin.sftpUploads.create', method: 'POST', path: BASE, auth: scopes,
  body: sftpDestinationBodySchema, response: sftpDestinationSchema,
});
/** One destination and its 50 newest uploads, newest first. */
export const getSftpDestination = defineCall({
  id: 'admin.sftpUploads.get', method: 'GET', path: `${BASE}/:id`, auth: scopes,
  params: destinationParams,
  response: z.object({ destination: sftpDestinationSchema, uploads: z.array(sftpUploadSchema) }),
});
/** Changes the settings; `credentials` absent keeps the stored ones. A new host or port forgets the pinned host key. */
export const updateSftpDestination = defineCall({
  id: 'admin.sftpUploads.update', method: 'PATCH', path: `${BASE}/:id`, auth: scopes,
  params: destinationParams,
  body: sftpDestinationBodySchema.omit({ credentials: true, start_date: true }).extend({ credentials: credentialsSchema.optional() }),
  response: sftpDestinationSchema,
});
/** Stops the uploads (a waiting one is canceled); files already uploaded stay where they are. */
export const deleteSftpDestination = defineCall({
  id: 'admin.sftpUploads.delete', method: 'DELETE', path: `${BASE}/:id`, auth: scopes,
  params: destinationParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});
/** "Upload now": queues an upload (or answers the one already waiting or running). */
export const runSftpUpload = defineCall({
  id: 'admin.sftpUploads.run', method: 'POST', path: `${BASE}/:id/uploads`, auth: scopes,
  params: destinationParams,
  response: sftpUploadSchema,
});

export const SFTP_CALLS = [
  listSftpDestinations, createSftpDestination, getSftpDestination, updateSftpDestination, deleteSftpDestination, runSftpUpload,
] as const;
