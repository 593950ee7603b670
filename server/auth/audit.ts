import type { Queryable } from '../db/db.ts';

export type AuditEntry = {
  identityId: string;
  spendUserId: string | null;
  businessId: string | null;
  impersonatorEmail: string | null;
  callId: string;
  method: string;
  path: string;
  status: number;
};

/**
 * One row per write call by a signed-in caller, refused ones included: who acted, on whose
 * behalf (impersonator), which call, and how it ended.
 */
export async function recordAudit(db: Queryable, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (identity_id, spend_user_id, business_id, impersonator_email, call_id, method, path, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.identityId, e.spendUserId, e.businessId, e.impersonatorEmail, e.callId, e.method, e.path, e.status],
  );
}
