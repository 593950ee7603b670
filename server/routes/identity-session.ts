import {
  featureFlags, fullAuthCheck, identityId, postErrorReport, postTelemetry, signOutAllSessions, startImpersonation,
  TELEMETRY_MAX_BYTES,
} from '../../schema/api/calls-identity.ts';
import { maskSensitive, sanitiseUrl } from '../../schema/telemetry.ts';
import { IMPERSONATION_TTL_SECONDS, issueToken, openSession } from '../auth/session.ts';
import { clientAddress, takeRateLimit, telemetryLimits } from '../auth/rate-limit.ts';
import { featureFlagsOf } from '../auth/settings.ts';
import { liveSupportGrant } from '../auth/support-access.ts';
import { ApiError } from '../core/errors.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { callerOf } from './identity-caller.ts';

export const sessionHandlers = {
  [identityId.id]: async (ctx) => ok({ identity_id: callerOf(ctx).identityId }),

  [fullAuthCheck.id]: async (ctx) => {
    const { claims } = callerOf(ctx);
    const mfaDone = !claims.ramp_mfa_required || claims.ramp_mfa_authed;
    return ok({ ok: mfaDone && claims.ramp_access_scopes.includes('default'), mfa_required: claims.ramp_mfa_required, mfa_authed: claims.ramp_mfa_authed });
  },

  [signOutAllSessions.id]: async (ctx) => {
    const actor = callerOf(ctx);
    const rows = await ctx.db.query('UPDATE sessions SET revoked_at = now() WHERE identity_id = $1 AND revoked_at IS NULL RETURNING id', [
      actor.identityId,
    ]);
    return ok({ revoked: rows.length });
  },

  [featureFlags.id]: async (ctx) => ok({ flags: await featureFlagsOf(ctx.db, actorOf(ctx).businessId) }),

  [startImpersonation.id]: async (ctx) => {
    const actor = actorOf(ctx);
    const [support] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1 AND is_support', [
      actor.identityId,
    ]);
    // Only a support identity acting as itself: no impersonating from an impersonation token.
    if (!support || actor.claims.impersonator) throw new ApiError('FORBIDDEN_7003');
    const [target] = await ctx.db.query<{ identity_id: string; business_id: string }>(
      `SELECT identity_id, business_id FROM spend_users WHERE id = $1 AND NOT deleted AND status = 'ACTIVE'`,
      [ctx.input.body.user_id],
    );
    if (!target) throw new ApiError('REQUEST_7004');
    // Only under the business's live support access grant (issue 24); the session names the
    // grant, and every request of its tokens checks it (http/authenticate.ts).
    const grant = await liveSupportGrant(ctx.db, target.business_id, ctx.deps.now());
    if (!grant) throw new ApiError('SUPPORT_7001');
    const sessionId = await openSession(ctx.db, target.identity_id, { impersonatorIdentityId: actor.identityId, grantId: grant.id });
    const { token, expiresAt } = await issueToken(
      ctx.deps,
      { identityId: target.identity_id, userId: ctx.input.body.user_id, businessId: target.business_id, sessionId },
      // §6 `impersonation-workflows-read`: support may read the business's workflows and their runs
      // while acting as anyone (auth/support-access.ts `supportReadsWorkflows`), and never write them.
      {
        scopes: ['default', 'impersonation-workflows-read'], mfaRequired: false, mfaAuthed: false, ttlSeconds: IMPERSONATION_TTL_SECONDS,
        impersonator: { email: support.email },
      },
    );
    return ok({ id_token: token, expires_at: expiresAt.toISOString() });
  },

  [postTelemetry.id]: async (ctx) => {
    await takeRateLimit(ctx.c, ctx.db, telemetryLimits(clientAddress(ctx.c)), ctx.deps.now());
    // The catalogue caps the count; the byte cap needs the raw body (Hono caches the text).
    if (Buffer.byteLength(await ctx.c.req.text()) > TELEMETRY_MAX_BYTES) throw new ApiError('REQUEST_7013');
    // Never trust the client's own scrubbing: paths and props are sanitised again here.
    const rows = ctx.input.body.events.map((e) => ({
      name: e.name, path: sanitiseUrl(e.path), props: maskSensitive(e.props), ts: e.ts,
    }));
    await ctx.db.query(
      `INSERT INTO telemetry_events (name, path, props, ts)
       SELECT name, path, props, ts FROM jsonb_to_recordset($1::jsonb) AS x(name text, path text, props jsonb, ts timestamptz)`,
      [JSON.stringify(rows)],
    );
    return ctx.c.body(null, 204);
  },

  [postErrorReport.id]: async (ctx) => {
    await takeRateLimit(ctx.c, ctx.db, telemetryLimits(clientAddress(ctx.c)), ctx.deps.now());
    if (Buffer.byteLength(await ctx.c.req.text()) > TELEMETRY_MAX_BYTES) throw new ApiError('REQUEST_7013');
    const b = ctx.input.body;
    const report = maskSensitive({ ...b, ...(b.url !== undefined && { url: sanitiseUrl(b.url) }) });
    await ctx.db.query('INSERT INTO error_reports (report) VALUES ($1::jsonb)', [JSON.stringify(report)]);
    return ctx.c.body(null, 204);
  },
} satisfies DomainHandlers;
