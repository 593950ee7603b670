import type { Queryable } from '../db/db.ts';

/**
 * Who a write is made by, as the database's field-change history records it (issue 24, migration
 * 033): the signed-in spend user and the device the request names. Set as transaction-local
 * settings at the start of every write transaction of a signed-in request, so the history's
 * triggers attribute every writer (PATCHes, bulk coding, bill bulk actions, approvals, rules)
 * without each of them passing it. Writes outside a request (jobs, the seed) set nothing: "no person".
 */
export type Acting = {
  /** The spend user, null when no person is behind the write (a SCIM or HRIS integration). */
  userId: string | null;
  device: string | null;
  /**
   * Issue 32: what the write came through when it is not the app: an API client (the user is then
   * the one it acts as), a SCIM integration or an HRIS connection. Event history shows its label.
   */
  source?: ActingSource;
};
export type ActingSource = { kind: 'api_client' | 'scim' | 'hris'; id: string; label: string };

/** Marks the transaction `tx` as made by `acting` (transaction-local: gone at commit or rollback). */
export async function applyActing(tx: Queryable, acting: Acting): Promise<void> {
  await tx.query(
    "SELECT set_config('ledgerline.actor_user', $1, true), set_config('ledgerline.device', $2, true), set_config('ledgerline.source', $3, true)",
    [acting.userId ?? '', acting.device ?? '', acting.source ? JSON.stringify(acting.source) : ''],
  );
}
