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
};

/**
 * One row per write call by a signed-in caller, refused ones included: who acted, on whose
 * behalf (impersonator), which call, and how it ended.
 */
export async function recordAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (identity_id, spend_user_id, business_id, impersonator_email, call_id, method, path, status, detail,
                            surface, surface_id, external_firm_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12)`,
    [e.identityId, e.spendUserId, e.businessId, e.impersonatorEmail, e.callId, e.method, e.path, e.status, e.detail ? JSON.stringify(e.detail) : null,
     e.surface ?? 'BUSINESS', e.surfaceId ?? null, e.externalFirmId ?? null],
  );
}
