import type { CallDef } from '../../schema/api/define-call.ts';
import { advisorRefusal, type AdvisorRight } from '../../schema/firm-authorization.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * The firm user in a client (issue 31, D3): its hidden spend user acts only under a live
 * authorization, read on every request — ended by the client, withdrawn by the firm, the firm user
 * unassigned or removed, or the firm suspended, and the next request answers FIRM_7005 (as support
 * impersonation dies with its grant). Then each call needs the right that opens it (FIRM_7003).
 */
type AdvisorBinding = NonNullable<Actor['advisor']>;

export async function advisorBindingOf(db: Queryable, spendUserId: string): Promise<AdvisorBinding | null> {
  const [row] = await db.query<{ firm_id: string; firm_user_id: string; authorization_id: string; rights: AdvisorRight[] }>(
    `SELECT a.firm_id::text, au.firm_user_id::text, a.id::text AS authorization_id, a.rights
       FROM external_firm_authorization_users au
       JOIN external_firm_authorizations a ON a.id = au.authorization_id AND a.status = 'ACTIVE'
       JOIN external_firm_users u ON u.id = au.firm_user_id AND u.status = 'ACTIVE'
       JOIN external_firms f ON f.id = a.firm_id AND f.status = 'ACTIVE'
      WHERE au.spend_user_id = $1`,
    [spendUserId],
  );
  return row ? { firmId: row.firm_id, firmUserId: row.firm_user_id, authorizationId: row.authorization_id, rights: row.rights } : null;
}

/** Register's advisor gate, right after the impersonation gate: FIRM_7003 outside the rights. */
export function assertAdvisorMayCall(call: CallDef, actor: Actor): void {
  if (!actor.advisor) return;
  const refusal = advisorRefusal(call, actor.advisor.rights);
  if (refusal) throw new ApiError('FIRM_7003', refusal);
}
