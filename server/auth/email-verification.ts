/**
 * Email verification at sign-up (issue 24): a self-signed-up identity starts unverified
 * (`identities.email_verified_at` NULL) and confirms a mailed 6-digit code. Until then its
 * business can do nothing that reaches another business, a domain or another mailbox: the calls
 * that do (SSO providers, invites, support access grants, mail to others) start with
 * `requireVerifiedEmail`. Invite acceptance, a passwordless link and an SSO sign-in prove the
 * mailbox too (`markEmailVerified`).
 */
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/** 403 PROFILE_UNVERIFIED unless the caller's identity has verified its email address. */
export async function requireVerifiedEmail(ctx: { db: Queryable; actor: Actor | null }): Promise<void> {
  if (!ctx.actor) throw new ApiError('AUTH_7002');
  const [row] = await ctx.db.query<{ verified: boolean }>(
    'SELECT email_verified_at IS NOT NULL AS verified FROM identities WHERE id = $1', [ctx.actor.identityId],
  );
  if (!row?.verified) throw new ApiError('PROFILE_UNVERIFIED');
}

/** The identity proved it reads its mailbox (kept when it already had). */
export async function markEmailVerified(db: Queryable, identityId: string, at: Date = new Date()): Promise<void> {
  await db.query('UPDATE identities SET email_verified_at = $2 WHERE id = $1 AND email_verified_at IS NULL', [identityId, at]);
}
