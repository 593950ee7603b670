import {
  deletePasskey, listAuthenticators, renamePasskey, webauthnAuthenticationOptions, webauthnRegistrationOptions,
  webauthnRegistrationVerify,
} from '../../schema/api/calls-webauthn.ts';
import { authenticationOptions, registrationOptions, relyingParty, verifyRegistration } from '../auth/webauthn.ts';
import { authenticatorsOf, deleteOwnFactor, passkeyView, type CredentialRow } from '../auth/webauthn-store.ts';
import { useEmailOtp } from '../auth/email-otp.ts';
import type { Caller } from '../core/actor.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { assertMayEnrol, assertMfaUp, mailboxCheck } from './identity.ts';
import { callerOf } from './identity-caller.ts';
import { codeGate, refuse, wrongCode } from './identity-code-limits.ts';

/**
 * Passkeys (issue 14 part 6): registration and authentication options, registration, the
 * authenticators list, rename and removal. The MFA step and step-up take assertions through
 * verify-mfa and step-up (routes/identity.ts, routes/identity-step-up.ts).
 */
const ownerOf = (actor: Caller) => ({ identityId: actor.identityId, sessionId: actor.sessionId });

/** Support acting as a person never adds, renames or uses their second factors. */
function assertNotImpersonating(actor: Caller): void {
  if (actor.claims.impersonator) throw new ApiError('FORBIDDEN_7003', 'Passkeys are not available while impersonating.');
}

export const webauthnHandlers = {
  [webauthnRegistrationOptions.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertNotImpersonating(actor);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    const rp = relyingParty(ctx.c);
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [actor.identityId]);
    if (!identity) throw new ApiError('AUTH_7002');
    return ok(await registrationOptions(ctx.db, rp, ownerOf(actor), identity.email, ctx.deps.now()), 201);
  },

  [webauthnRegistrationVerify.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertNotImpersonating(actor);
    await assertMfaUp(ctx.db);
    await assertMayEnrol(ctx.db, actor);
    const rp = relyingParty(ctx.c);
    const attempt = { c: ctx.c, deps: ctx.deps, db: ctx.db, actor };
    // A first enrolment from a sign-in waiting for MFA is bound to the mailbox, as TOTP's.
    const blocked = await codeGate(attempt);
    if (blocked) return blocked;
    const mailbox = await mailboxCheck(attempt, ctx.input.body.email_code);
    if (mailbox && !('otpId' in mailbox)) return mailbox;
    const { response, name } = ctx.input.body;
    const done = await verifyRegistration(ctx.db, rp, ownerOf(actor), response, name, ctx.deps.now());
    if (!done.ok) {
      const r = done.refusal;
      return r.counted ? wrongCode(attempt, r.code, r.message) : refuse(r.code, r.message);
    }
    // Lost to a concurrent use of the same email code: thrown, so the new passkey rolls back.
    if (mailbox && !(await useEmailOtp(ctx.db, mailbox.otpId, ctx.deps.now()))) throw new ApiError('PROFILE_7017');
    return ok(done.authenticator, 201);
  },

  [listAuthenticators.id]: async (ctx) => {
    const actor = actorOf(ctx);
    return ok({ authenticators: await authenticatorsOf(ctx.db, actor.identityId) });
  },

  [renamePasskey.id]: async (ctx) => {
    const actor = actorOf(ctx);
    assertNotImpersonating(actor);
    const [row] = await ctx.db.query<CredentialRow>(
      `UPDATE webauthn_credentials SET name = $3 WHERE id = $1 AND identity_id = $2
       RETURNING id, identity_id, credential_id, public_key, counter::float8 AS counter, transports, device_type, backed_up,
                 name, ll_iso(created_at) AS created_at, ll_iso(last_used_at) AS last_used_at`,
      [ctx.input.params.authenticator_id, actor.identityId, ctx.input.body.name],
    );
    // Another person's passkey is as unknown as a missing one.
    if (!row) throw new ApiError('REQUEST_7004');
    return ok(passkeyView(row));
  },

  [deletePasskey.id]: async (ctx) => {
    const actor = actorOf(ctx);
    if (!(await deleteOwnFactor(ctx.db, 'webauthn_credentials', ctx.input.params.authenticator_id, actor.identityId))) throw new ApiError('REQUEST_7004');
    return ok({ ok: true });
  },

  // Any surface (issue 31): a passkey proves the second factor of a surface's sign-in too.
  [webauthnAuthenticationOptions.id]: async (ctx) => {
    const actor = callerOf(ctx);
    assertNotImpersonating(actor);
    await assertMfaUp(ctx.db);
    const rp = relyingParty(ctx.c);
    return ok(await authenticationOptions(ctx.db, rp, ownerOf(actor), ctx.deps.now()), 201);
  },
} satisfies DomainHandlers;
