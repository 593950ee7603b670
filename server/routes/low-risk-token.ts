import { mintLowRiskToken } from '../../schema/api/calls-identity.ts';
import { LOW_RISK_TOKEN_MAX_TTL_SECONDS } from '../../schema/api/scopes.ts';
import { issueToken } from '../auth/session.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * §6 low-risk tokens: the caller's full token exchanged for one carrying only `low-risk`, on the
 * same session (so sign-out ends it), keeping the MFA and impersonation claims, and expiring no
 * later than the token it came from (at most LOW_RISK_TOKEN_MAX_TTL_SECONDS). The scope gate
 * (schema/api/scopes.ts) then admits it to the calls listing `low-risk` only.
 */
export const lowRiskTokenHandlers = {
  [mintLowRiskToken.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const nowSeconds = Math.floor(ctx.deps.now() / 1000);
    const ttlSeconds = Math.min(LOW_RISK_TOKEN_MAX_TTL_SECONDS, actor.claims.exp - nowSeconds);
    const { token, expiresAt } = await issueToken(
      ctx.deps,
      { identityId: actor.identityId, userId: actor.user.id, businessId: actor.businessId, sessionId: actor.sessionId },
      {
        scopes: ['low-risk'], mfaRequired: actor.claims.ramp_mfa_required, mfaAuthed: actor.claims.ramp_mfa_authed,
        ttlSeconds, signInProvider: actor.claims.sign_in_provider,
        ...(actor.claims.impersonator && { impersonator: actor.claims.impersonator }),
      },
    );
    return ok({ id_token: token, expires_at: expiresAt.toISOString() });
  },
} satisfies DomainHandlers;
