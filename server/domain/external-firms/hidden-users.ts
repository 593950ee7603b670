import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import { writeMirrored } from '../collections.ts';

/**
 * The hidden spend users of firm users inside a client (issue 31, D3): role ADVISOR_CONSOLE_ADMIN
 * for firm admins, else ADVISOR_CONSOLE_USER, `external_firm` set, never the default spend user
 * (no accepted cardholder agreement). Written through the mirrored path: the client's `users` feed
 * announces them (visibility hides them from people lists, helper D).
 */
type FirmUserRow = { id: string; identity_id: string; role: string; first_name: string; last_name: string; email: string };

/**
 * Binds each firm user to `authorizationId` through a hidden spend user in `businessId`. An identity
 * that already is a visible member of the business keeps its own access and is not bound (answered
 * in `skipped`); a hidden advisor row left by an ended authorization is taken up again.
 */
export async function bindFirmUsers(
  tx: Queryable, firmId: string, businessId: string, authorizationId: string, firmUserIds: readonly string[],
): Promise<{ bound: string[]; skipped: string[] }> {
  const users = await tx.query<FirmUserRow & { existing_id: string | null; existing_role: string | null }>(
    `SELECT f.id::text, f.identity_id::text, f.role, f.first_name, f.last_name, f.email, s.id::text AS existing_id, s.role AS existing_role
       FROM external_firm_users f LEFT JOIN spend_users s ON s.identity_id = f.identity_id AND s.business_id = $2
      WHERE f.firm_id = $1 AND f.id = ANY($3::uuid[]) AND f.status = 'ACTIVE' ORDER BY f.id`,
    [firmId, businessId, [...firmUserIds]],
  );
  const skipped = users.filter((u) => u.existing_id && !u.existing_role?.startsWith('ADVISOR_CONSOLE_')).map((u) => u.id);
  const toBind = users.filter((u) => !skipped.includes(u.id));
  if (toBind.length === 0) return { bound: [], skipped };
  await writeMirrored(tx, businessId, toBind.length, async ({ seqs }) => {
    for (const [i, u] of toBind.entries()) {
      const spendUserId = u.existing_id ?? randomUUID();
      const role = u.role === 'EXTERNAL_FIRM_ADMIN' ? 'ADVISOR_CONSOLE_ADMIN' : 'ADVISOR_CONSOLE_USER';
      await tx.query(
        `INSERT INTO spend_users (id, business_id, identity_id, role, external_firm, external_firm_role, first_name, last_name, email,
                                  status, has_accepted_cardholder_agreement, change_seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'ACTIVE', false, $10)
         ON CONFLICT (identity_id, business_id) DO UPDATE
           SET role = EXCLUDED.role, external_firm = EXCLUDED.external_firm, external_firm_role = EXCLUDED.external_firm_role,
               status = 'ACTIVE', deleted = false, change_seq = EXCLUDED.change_seq, updated_at = now()`,
        [spendUserId, businessId, u.identity_id, role, JSON.stringify({ uuid: firmId, id: u.id }), u.role, u.first_name, u.last_name,
          u.email, seqs.first + i],
      );
      await tx.query(
        'INSERT INTO external_firm_authorization_users (authorization_id, firm_user_id, spend_user_id) VALUES ($1, $2, $3)',
        [authorizationId, u.id, spendUserId],
      );
    }
  });
  return { bound: toBind.map((u) => u.id), skipped };
}

/**
 * Unbinds firm users from authorizations (`where` over external_firm_authorization_users as `au`):
 * their hidden spend users are deleted (mirrored) and the binding rows go, so a token of one
 * answers FIRM_7005 at once (authenticate.ts: an advisor role with no ACTIVE binding).
 */
export async function unbindFirmUsers(tx: Queryable, where: string, params: unknown[]): Promise<number> {
  const rows = await tx.query<{ spend_user_id: string; business_id: string }>(
    `DELETE FROM external_firm_authorization_users au USING spend_users s
      WHERE s.id = au.spend_user_id AND ${where} RETURNING au.spend_user_id::text, s.business_id::text`,
    params,
  );
  const byBusiness = new Map<string, string[]>();
  for (const r of rows) byBusiness.set(r.business_id, [...(byBusiness.get(r.business_id) ?? []), r.spend_user_id]);
  for (const [businessId, ids] of byBusiness) {
    await writeMirrored(tx, businessId, ids.length, async ({ seqs }) => {
      for (const [i, id] of ids.entries()) {
        await tx.query('UPDATE spend_users SET deleted = true, change_seq = $2, updated_at = now() WHERE id = $1', [id, seqs.first + i]);
      }
    });
  }
  return rows.length;
}
