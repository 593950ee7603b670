/**
 * Support access (issue 24): Ledgerline support acts as a person of a business only under that
 * business's grant, and an impersonation token is held to what the grant allows. The rule for
 * every request lives here and runs in http/register.ts before any handler.
 */
import type { CallDef } from '../../schema/api/define-call.ts';
import type { Actor } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/**
 * Calls about the person's own security and mailbox, which support must never reach even with a
 * write grant: step-up, emailed codes, second factors, passkeys, sessions, the business's grant
 * itself, and starting another impersonation.
 */
const SECURITY_CALL_PREFIXES = ['mfa.', 'webauthn.', 'appAttest.', 'emailVerification.', 'admin.supportAccess.'];
const SECURITY_CALLS = new Set([
  'auth.stepUp', 'auth.sendEmailOtp', 'auth.verifyEmailOtp', 'users.signOutAllSessions', 'impersonation.start',
  'auth.passwordlessValidate', 'invites.acceptAndCreateIdentity', 'users.switchBusiness',
]);
/** Ending the impersonation session is always allowed (it changes nothing of the person's). */
const ALWAYS_ALLOWED = new Set(['users.signOut']);

/** True for a call an impersonation token may never make (SUPPORT_7003). */
function isSecurityCall(call: CallDef): boolean {
  if (SECURITY_CALLS.has(call.id) || SECURITY_CALL_PREFIXES.some((p) => call.id.startsWith(p))) return true;
  const auth = call.auth;
  if (auth.kind === 'scopes' && auth.scopes.some((s) => s === 'sensitive' || s === 'email-otp')) return true;
  // A recent-token write is a step of signing in or enrolling (a fresh impersonation token is recent too).
  const recent = auth.kind === 'recent-token' || (auth.kind === 'scopes' && auth.recentTokenMaxAgeSeconds !== undefined);
  return recent && call.method !== 'GET';
}

/** A write: anything but a GET or a POST that only reads. */
const isWrite = (call: CallDef) => call.method !== 'GET' && !call.readOnly;

/**
 * Automation (issue 29): support reads workflows and their runs to explain what happened to
 * someone's item (`impersonation-workflows-read`), but never changes them, even under a write
 * grant: a workflow acts on the whole business, not on the person support is helping.
 */
const WORKFLOW_CALL_PREFIXES = ['workflows.', 'blankCanvas.'];
const isWorkflowCall = (call: CallDef) => WORKFLOW_CALL_PREFIXES.some((p) => call.id.startsWith(p));

/** True when `actor` is support acting under a token that carries `impersonation-workflows-read`. */
export const supportReadsWorkflows = (actor: Actor): boolean =>
  actor.claims.impersonator !== undefined && actor.claims.ramp_access_scopes.includes('impersonation-workflows-read');

/**
 * The impersonation gate: nothing for a person's own token; for support acting as someone,
 * security calls → 403 SUPPORT_7003, writes under a read-only grant → 403 SUPPORT_7002.
 * (A revoked or expired grant never gets here: authentication refused it, SUPPORT_7001.)
 */
export function assertImpersonationMayCall(call: CallDef, actor: Actor): void {
  if (!actor.claims.impersonator || ALWAYS_ALLOWED.has(call.id)) return;
  if (isSecurityCall(call)) throw new ApiError('SUPPORT_7003');
  if (isWorkflowCall(call) && isWrite(call)) throw new ApiError('SUPPORT_7002', 'Support may read workflows while acting as someone, never change them.');
  if (isWrite(call) && !actor.supportGrant?.allowWrites) throw new ApiError('SUPPORT_7002');
}

/** The business's live grant (not revoked, not expired), if any. */
export async function liveSupportGrant(db: Queryable, businessId: string, nowMs: number): Promise<{ id: string; allow_writes: boolean } | null> {
  const [row] = await db.query<{ id: string; allow_writes: boolean }>(
    `SELECT id, allow_writes FROM support_access_grants
      WHERE business_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at DESC LIMIT 1`,
    [businessId, new Date(nowMs)],
  );
  return row ?? null;
}
