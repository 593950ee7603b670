import type { Queryable } from '../db/db.ts';

/**
 * Who a write in this transaction is for (issue 32, event history): set once at the start of a
 * write transaction, read by the history capture when the rows change. Kinds: a signed-in person
 * (optionally through an API client or acting as a firm / support), an API client, a SCIM or HRIS
 * integration, or the system (jobs).
 */
export type WriteActor = {
  kind: 'user' | 'api_client' | 'scim' | 'hris' | 'system';
  /** The spend user, when a person is behind it. */
  user_id?: string | null;
  /** The API client, SCIM integration or HRIS connection id. */
  source_id?: string | null;
  /** What the history shows: "Rhea Lind", "Rhea Lind (Northwind Bookkeeping)", "API client Payroll sync", "SCIM (Okta)". */
  label: string;
  /** The device or client: "Web · Chrome on macOS", "iOS app", "API". */
  device?: string | null;
};

/** Local to the transaction (set_config …, true): it ends with it, and never leaks to another request. */
export async function setWriteActor(tx: Queryable, actor: WriteActor): Promise<void> {
  await tx.query("SELECT set_config('ledgerline.write_actor', $1, true)", [JSON.stringify(actor)]);
}
