import type { Queryable } from '../../db/db.ts';

/**
 * The `require_receipt` action's mark, for the missing-items call (issue 29; h-xpsrv owns
 * missing-items): of `objectIds` (transactions and claims), those a workflow requires a receipt
 * for, whatever the expense policy says. An item with a receipt attached is no longer missing one:
 * the caller treats a required item without receipts as `missing_receipt`. One indexed read (the
 * table's primary key leads with business and object).
 */
export async function workflowReceiptRequirements(db: Queryable, businessId: string, objectIds: readonly string[]): Promise<Set<string>> {
  if (objectIds.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(
    'SELECT DISTINCT object_id::text AS id FROM workflow_receipt_requirements WHERE business_id = $1 AND object_id = ANY($2::uuid[])',
    [businessId, [...objectIds]],
  );
  return new Set(rows.map((r) => r.id));
}
