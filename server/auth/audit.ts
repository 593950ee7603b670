import type { Queryable } from '../db/db.ts';

/**
 * Details a handler adds to its own call's audit row (keyed by the request, read by
 * http/register.ts when it writes the row): e.g. a support access grant's period.
 */
const details = new WeakMap<object, Record<string, unknown>>();
export function noteAuditDetail(request: object, detail: Record<string, unknown>): void {
  details.set(request, { ...details.get(request), ...detail });
}
export const auditDetailOf = (request: object): Record<string, unknown> | null => details.get(request) ?? null;

export type AuditEntry = {
  identityId: string;
  spendUserId: string | null;
  businessId: string | null;
  impersonatorEmail: string | null;
  callId: string;
  method: string;
  path: string;
  status: number;
  detail?: Record<string, unknown> | null;
  /** Issue 31: the surface the call came from, the id it acted for there, and a firm user's firm. */
  surface?: string;
  surfaceId?: string | null;
  externalFirmId?: string | null;
  /**
   * Issue 33: the row of a call that changed nothing (a read-only POST, e.g. the transaction
   * search) is committed without waiting for its WAL flush (`synchronous_commit = off` for this
   * one statement's transaction). A search paid a WAL flush per call (5–9 ms on this machine's
   * disk, far more under load, and each flush queued behind and ahead of the writers' COMMITs,
   * which hold their business's lock while they flush). GET reads write no row at all; this row is
   * still written at once and visible to every reader, and only a database crash within
   * wal_writer_delay (200 ms) of the call can lose it. Rows of every call that may write stay
   * synchronous. Only for a statement outside a transaction (inside one it would make the whole
   * transaction's commit asynchronous): register.ts runs read-only calls outside one.
   */
  readOnly?: boolean;
};

const AUDIT_COLUMNS = `audit_log (identity_id, spend_user_id, business_id, impersonator_email, call_id, method, path, status, detail,
                       surface, surface_id, external_firm_id)`;
const DURABLE_INSERT = `INSERT INTO ${AUDIT_COLUMNS} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12)`;
// set_config(…, true) is local to the statement's own (implicit) transaction, and PostgreSQL reads
// synchronous_commit when that transaction commits, before it resets local settings: the pooled
// connection's next statement commits synchronously again (audit.pg.test.ts). The parameters are
// cast here since an INSERT … SELECT does not type them from the columns.
const ASYNC_INSERT = `INSERT INTO ${AUDIT_COLUMNS}
  SELECT $1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::text, $8::int, $9::jsonb, $10::text, $11::uuid, $12::uuid
    FROM (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit`;

/**
 * One row per write call by a signed-in caller, refused ones included: who acted, on whose
 * behalf (impersonator), which call, and how it ended.
 */
export async function recordAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    e.readOnly ? ASYNC_INSERT : DURABLE_INSERT,
    [e.identityId, e.spendUserId, e.businessId, e.impersonatorEmail, e.callId, e.method, e.path, e.status, e.detail ? JSON.stringify(e.detail) : null,
     e.surface ?? 'BUSINESS', e.surfaceId ?? null, e.externalFirmId ?? null],
  );
}
