import { z } from 'zod';
import type { FirmClient } from '../../../schema/entities/external-firm.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { SYNCABLE } from '../accounting/sync-items.ts';
import type { Page } from '../newest-first-page.ts';
import { endAuthorization } from './client-side.ts';
import { assertFirmAdmin, type FirmCaller } from './firm-caller.ts';
import { unbindFirmUsers } from './hidden-users.ts';

/**
 * The firm's clients (issue 31, `GET /v1/auth/external-firm/clients`): each live authorization
 * with its open items, counted with the definitions the client's own app uses — uncoded and
 * missing receipts over the charges the Reports tiles count (PENDING and CLEARED), "not synced" as
 * the accounting sync takes items (accounting/sync-items.ts SYNCABLE), pending bills awaiting
 * approval or payment. A firm member sees only the clients it is assigned to.
 */
const SPEND = `t.business_id = a.business_id AND NOT t.deleted AND t.state IN ('PENDING', 'CLEARED')`;
const HAS_RECEIPT = `EXISTS (SELECT 1 FROM transaction_receipts tr JOIN receipts rc ON rc.id = tr.receipt_id WHERE tr.transaction_id = t.id AND NOT rc.deleted)`;
const unsynced = (type: keyof typeof SYNCABLE) =>
  `(SELECT count(*) FROM ${SYNCABLE[type].table} r WHERE r.business_id = a.business_id AND NOT r.deleted AND r.accounting_synced_at IS NULL AND ${SYNCABLE[type].where})`;
const CLIENT_DOC = `a.business_id::text, b.name AS business_name, a.id::text AS authorization_id, a.rights,
  coalesce((SELECT array_agg(au.firm_user_id::text ORDER BY au.firm_user_id) FROM external_firm_authorization_users au WHERE au.authorization_id = a.id), '{}') AS assigned_firm_user_ids,
  json_build_object(
    'uncoded', (SELECT count(*) FROM transactions t WHERE ${SPEND} AND t.gl_account_id IS NULL),
    'missing_receipts', (SELECT count(*) FROM transactions t WHERE ${SPEND} AND NOT ${HAS_RECEIPT}),
    'unsynced', ${unsynced('transaction')} + ${unsynced('reimbursement')} + ${unsynced('bill')},
    'pending_bills', (SELECT count(*) FROM bills r WHERE r.business_id = a.business_id AND NOT r.deleted
                       AND r.status IN ('PENDING_APPROVAL', 'APPROVED', 'SCHEDULED'))
  ) AS open_items`;
const SORT = 'clients_by_name';

export async function listClients(db: Queryable, caller: FirmCaller, page: { pageSize: number; start?: string | undefined }): Promise<Page<FirmClient>> {
  const after = page.start ? decodeCursor(page.start, SORT, z.tuple([z.string(), z.uuid()])) : null;
  const rows = await db.query<FirmClient & { k: string }>(
    `SELECT ${CLIENT_DOC} FROM external_firm_authorizations a JOIN businesses b ON b.id = a.business_id
      WHERE a.firm_id = $1 AND a.status = 'ACTIVE'
        AND ($2::boolean OR EXISTS (SELECT 1 FROM external_firm_authorization_users au WHERE au.authorization_id = a.id AND au.firm_user_id = $3))
        AND ($4::text IS NULL OR (b.name, a.business_id) > ($4::text, $5::uuid))
      ORDER BY b.name, a.business_id LIMIT $6`,
    [caller.firmId, caller.isAdmin, caller.firmUserId, after?.[0] ?? null, after?.[1] ?? null, page.pageSize + 1],
  );
  const data = rows.slice(0, page.pageSize);
  const last = data[data.length - 1];
  const next = rows.length > page.pageSize && last ? encodeCursor(SORT, [last.business_name, last.business_id]) : null;
  return { data, page: { next } };
}

/** The caller's hidden spend user in a client it is assigned to under a live authorization; 404 otherwise. */
export async function assignedSpendUser(db: Queryable, caller: FirmCaller, businessId: string): Promise<string> {
  const [row] = await db.query<{ spend_user_id: string }>(
    `SELECT au.spend_user_id::text FROM external_firm_authorization_users au
       JOIN external_firm_authorizations a ON a.id = au.authorization_id
      WHERE a.firm_id = $1 AND a.business_id = $2 AND a.status = 'ACTIVE' AND au.firm_user_id = $3`,
    [caller.firmId, businessId, caller.firmUserId],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return row.spend_user_id;
}

/** The firm withdraws from a client (admins): the authorization ENDS, ended_by FIRM. */
export async function withdraw(tx: Queryable, caller: FirmCaller, authorizationId: string, now: number) {
  assertFirmAdmin(caller);
  const doc = await endAuthorization(tx, authorizationId, { firmId: caller.firmId }, 'FIRM', now);
  return { business_id: doc.business_id, authorization_id: doc.id };
}

/** Unassigns one firm user from a client; the last one's unassignment ends the authorization (design §2.6). */
export async function unassign(tx: Queryable, caller: FirmCaller, authorizationId: string, firmUserId: string, now: number) {
  assertFirmAdmin(caller);
  const [auth] = await tx.query<{ business_id: string }>(
    `SELECT business_id::text FROM external_firm_authorizations WHERE id = $1 AND firm_id = $2 AND status = 'ACTIVE' FOR UPDATE`,
    [authorizationId, caller.firmId],
  );
  if (!auth) throw new ApiError('REQUEST_7004');
  const removed = await unbindFirmUsers(tx, 'au.authorization_id = $1 AND au.firm_user_id = $2', [authorizationId, firmUserId]);
  if (removed === 0) throw new ApiError('REQUEST_7004');
  const left = await tx.query<{ id: string }>('SELECT firm_user_id::text AS id FROM external_firm_authorization_users WHERE authorization_id = $1 ORDER BY 1', [authorizationId]);
  if (left.length === 0) await endAuthorization(tx, authorizationId, { firmId: caller.firmId }, 'FIRM', now);
  return { business_id: auth.business_id, authorization_id: authorizationId, assigned_firm_user_ids: left.map((r) => r.id) };
}
