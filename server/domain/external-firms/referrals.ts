import { randomBytes, randomUUID } from 'node:crypto';
import type { FirmReferral } from '../../../schema/entities/external-firm.ts';
import { canViewReferrals } from '../../../schema/roles.ts';
import type { Actor } from '../../core/actor.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';
import { assertFirmAdmin, type FirmCaller } from './firm-caller.ts';
import { iso } from './sql.ts';

/** Referral codes of a firm (issue 31): admins create and delete them; a deleted code refers nobody. */
const DOC = `id::text, code, label, ${iso('created_at')} AS created_at`;
/** Ten characters of an unambiguous alphabet (no 0/O, 1/I/L): read aloud and typed by hand. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const newCode = () => [...randomBytes(10)].map((b) => ALPHABET[b % ALPHABET.length]).join('');

export async function listReferrals(db: Queryable, caller: FirmCaller): Promise<FirmReferral[]> {
  assertFirmAdmin(caller);
  return db.query<FirmReferral>(`SELECT ${DOC} FROM external_firm_referrals WHERE firm_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id`, [caller.firmId]);
}

export async function createReferral(tx: Queryable, caller: FirmCaller, label: string, now: number): Promise<FirmReferral> {
  assertFirmAdmin(caller);
  const [row] = await tx.query<FirmReferral>(
    `INSERT INTO external_firm_referrals (id, firm_id, code, label, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${DOC}`,
    [randomUUID(), caller.firmId, newCode(), label, new Date(now)],
  );
  return row!;
}

export async function deleteReferral(tx: Queryable, caller: FirmCaller, id: string, now: number): Promise<FirmReferral> {
  assertFirmAdmin(caller);
  const [row] = await tx.query<FirmReferral>(
    `UPDATE external_firm_referrals SET deleted_at = $3 WHERE id = $1 AND firm_id = $2 AND deleted_at IS NULL RETURNING ${DOC}`,
    [id, caller.firmId, new Date(now)],
  );
  if (!row) throw new ApiError('REQUEST_7004');
  return row;
}

/** §6 canViewReferrals: a firm's hidden user in a client does not see who referred the client. */
export async function businessReferral(db: Queryable, actor: Actor): Promise<{ referred_by_firm: { id: string; name: string } | null }> {
  const [me] = await db.query<{ external_firm: { uuid: string; id: string } | null }>('SELECT external_firm FROM spend_users WHERE id = $1', [actor.user.id]);
  if (!canViewReferrals({ ...actor.user, external_firm: me?.external_firm ?? null })) {
    throw new ApiError('FORBIDDEN_7003', 'Referrals are not shown to accounting firms.');
  }
  const [row] = await db.query<{ id: string | null; name: string | null }>(
    'SELECT f.id::text, f.name FROM businesses b LEFT JOIN external_firms f ON f.id = b.referred_by_firm_id WHERE b.id = $1', [actor.businessId],
  );
  return { referred_by_firm: row?.id ? { id: row.id, name: row.name! } : null };
}
