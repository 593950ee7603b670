import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Issue 31: the business's audit log read (admins): one row per write made in the business,
 * refusals included, newest first, each naming the person. A firm user acting in the business
 * (its hidden spend user) is named "Jane Roe (Acme CPAs)"; support acting as someone carries the
 * support person's email. Spread into SURFACE_CALLS (calls-surfaces.ts); must not import calls.ts.
 */
const group = callGroup('/v1/auth', { scopes: ['default'] });

export const auditLogRowSchema = z.object({
  id: z.string(),
  at: z.iso.datetime({ offset: true }),
  call_id: z.string(),
  method: z.string(),
  /** The call's path as the catalogue declares it (`/v1/auth/bills/:bill_uuid`), not the path requested. */
  path: z.string(),
  status: z.number().int(),
  actor: z.object({
    spend_user_id: z.uuid().nullable(),
    /** The person's name; a firm user's with its firm: "Jane Roe (Acme CPAs)". */
    name: z.string(),
    external_firm_id: z.uuid().nullable(),
  }),
  impersonator_email: z.string().nullable(),
});
export type AuditLogRow = z.infer<typeof auditLogRowSchema>;

export const listAuditLog = group('admin.auditLog.list', 'GET', '/businesses/audit-log', {
  retry: 'paged',
  query: pageQuerySchema.extend({
    /** Only this person's rows (a spend user of the business). */
    actor: z.uuid().optional(),
    /** Only this call's rows (a catalogue id, e.g. `transactions.patch`). */
    call: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'call must be a call id').optional(),
    start: z.string().regex(/^\d{1,19}$/, 'start must be a page cursor').optional(),
  }),
  response: paginatedSchema(auditLogRowSchema),
});

export const AUDIT_LOG_CALLS = [listAuditLog] as const;
