/**
 * Support access grants (issue 24): an owner or admin turns support access on for a period
 * (1–14 days, read-only unless allow_writes), sees it and revokes it. Ledgerline support can
 * impersonate a person of the business only while a grant is live (routes/identity-session.ts);
 * every request of an impersonation token checks the grant (http/authenticate.ts) and is held to
 * it (auth/support-access.ts). Each grant and revoke is in the audit log with its detail.
 */
import {
  getSupportAccess, grantSupportAccess, revokeSupportAccess, type SupportAccessState,
} from '../../schema/api/calls-support-access.ts';
import { noteAuditDetail } from '../auth/audit.ts';
import { requireVerifiedEmail } from '../auth/email-verification.ts';
import type { Queryable } from '../db/db.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf, inWriteTx } from './admin.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

type GrantRow = {
  id: string; allow_writes: boolean; live: boolean; created_at: string; expires_at: string; revoked_at: string | null;
  granted_by_id: string; granted_by_name: string; revoked_by_id: string | null; revoked_by_name: string | null;
};

/** The business's latest grant (live or ended), as the Settings section shows it. */
async function stateOf(db: Queryable, businessId: string, nowMs: number): Promise<SupportAccessState> {
  const [row] = await db.query<GrantRow>(
    `SELECT g.id, g.allow_writes, (g.revoked_at IS NULL AND g.expires_at > $2) AS live,
            ll_iso(g.created_at) AS created_at, ll_iso(g.expires_at) AS expires_at, ll_iso(g.revoked_at) AS revoked_at,
            gb.id AS granted_by_id, trim(gb.first_name || ' ' || gb.last_name) AS granted_by_name,
            rb.id AS revoked_by_id, trim(rb.first_name || ' ' || rb.last_name) AS revoked_by_name
       FROM support_access_grants g
       JOIN spend_users gb ON gb.id = g.granted_by_user_id
       LEFT JOIN spend_users rb ON rb.id = g.revoked_by_user_id
      WHERE g.business_id = $1
      ORDER BY g.created_at DESC, (g.revoked_at IS NULL) DESC LIMIT 1`,
    [businessId, new Date(nowMs)],
  );
  if (!row) return { grant: null };
  return {
    grant: {
      id: row.id, active: row.live, allow_writes: row.allow_writes,
      created_at: row.created_at, expires_at: row.expires_at, revoked_at: row.revoked_at,
      granted_by: { user_id: row.granted_by_id, name: row.granted_by_name },
      revoked_by: row.revoked_by_id ? { user_id: row.revoked_by_id, name: row.revoked_by_name ?? '' } : null,
    },
  };
}

/** Ends the live grant, if any; returns its id. Callers hold the business row's lock. */
async function endLiveGrant(db: Queryable, businessId: string, byUserId: string, nowMs: number): Promise<string | null> {
  const [ended] = await db.query<{ id: string }>(
    `UPDATE support_access_grants SET revoked_at = $3, revoked_by_user_id = $2
      WHERE business_id = $1 AND revoked_at IS NULL AND expires_at > $3 RETURNING id`,
    [businessId, byUserId, new Date(nowMs)],
  );
  return ended?.id ?? null;
}

const lockBusiness = (db: Queryable, businessId: string) => db.query('SELECT id FROM businesses WHERE id = $1 FOR UPDATE', [businessId]);

export const supportAccessHandlers = {
  [getSupportAccess.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok(await stateOf(ctx.db, businessId, ctx.deps.now()));
  },

  [grantSupportAccess.id]: async (ctx) => {
    const actor = adminOf(ctx);
    await requireVerifiedEmail(ctx);
    const now = ctx.deps.now();
    const { days, allow_writes = false } = ctx.input.body;
    await lockBusiness(ctx.db, actor.businessId);
    // A new grant replaces the live one: at most one live grant per business.
    const replaced = await endLiveGrant(ctx.db, actor.businessId, actor.user.id, now);
    const expiresAt = new Date(now + days * DAY_MS);
    const [grant] = await ctx.db.query<{ id: string }>(
      `INSERT INTO support_access_grants (id, business_id, granted_by_user_id, allow_writes, created_at, expires_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5) RETURNING id`,
      [actor.businessId, actor.user.id, allow_writes, new Date(now), expiresAt],
    );
    noteAuditDetail(ctx.c.req.raw, {
      support_access: 'granted', grant_id: grant!.id, days, allow_writes, expires_at: expiresAt.toISOString(), replaced_grant_id: replaced,
    });
    return ok(await stateOf(ctx.db, actor.businessId, now), 201);
  },

  [revokeSupportAccess.id]: async (ctx) => {
    const actor = adminOf(ctx);
    const now = ctx.deps.now();
    return inWriteTx(ctx, revokeSupportAccess, async (tx) => {
      await lockBusiness(tx, actor.businessId);
      const ended = await endLiveGrant(tx, actor.businessId, actor.user.id, now);
      noteAuditDetail(ctx.c.req.raw, { support_access: ended ? 'revoked' : 'already-off', grant_id: ended });
      return ok(await stateOf(tx, actor.businessId, now));
    });
  },
} satisfies DomainHandlers;
