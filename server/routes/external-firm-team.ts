import {
  firmApplicationGet, firmApply, firmApplyVerify, firmGet, firmInvitesAccept, firmInvitesAcceptSignedIn, firmInvitesCreate,
  firmInvitesDelete, firmInvitesResend, firmUsersDelete,
} from '../../schema/api/calls-external-firm-console.ts';
import type { OtherSurfaceClaim } from '../../schema/api/scopes.ts';
import { foldEmail } from '../auth/email-address.ts';
import { markEmailVerified } from '../auth/email-verification.ts';
import { hashPassword } from '../auth/password.ts';
import { signUpQuotas, takeQuota } from '../auth/quotas.ts';
import { clientAddress } from '../auth/rate-limit.ts';
import { surfaceSignIn } from '../auth/session.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { NO_PASSWORD } from '../domain/admin-users.ts';
import { checkApplyCode, decideApplication, readApplication, startApplication } from '../domain/external-firms/apply.ts';
import { firmCallerOf } from '../domain/external-firms/firm-caller.ts';
import { createInvite, deleteInvite, firmView, joinFirm, openInvite, removeFirmUser, resendInvite } from '../domain/external-firms/team.ts';
import { mailLinks } from '../http/mail-links.ts';
import { ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';

/** Issue 31: the firm application, the firm and its team (schema/api/calls-external-firm-console.ts). */
const consoleClaim = (firmId: string, firmUserId: string): OtherSurfaceClaim => ({
  kind: 'ADVISOR_CONSOLE', external_firm_id: firmId, external_firm_user_id: firmUserId,
});

const caller = (ctx: Parameters<typeof surfaceActorOf>[0] & { db: Queryable }) =>
  firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'));

export const firmTeamHandlers = {
  [firmApply.id]: async (ctx) => {
    const body = { ...ctx.input.body, email: foldEmail(ctx.input.body.email) };
    // Counted per address asked for, known or not: the answer is the same 204 either way.
    await takeQuota(ctx.c, ctx.db, signUpQuotas(ctx.deps.quotas, clientAddress(ctx.c), body.email), ctx.deps.now());
    await ctx.deps.db.transaction((tx) => startApplication(ctx.deps, tx, body, ctx.deps.now()));
    return ctx.c.body(null, 204);
  },

  [firmApplyVerify.id]: async (ctx) => {
    const now = ctx.deps.now();
    // The code is checked (a wrong guess counted) outside the transaction that builds the firm.
    const pending = await checkApplyCode(ctx.db, foldEmail(ctx.input.body.email), ctx.input.body.code, now);
    return ctx.deps.db.transaction(async (tx) => {
      const decided = await decideApplication(tx, pending, now);
      const surface: OtherSurfaceClaim = 'firmId' in decided
        ? consoleClaim(decided.firmId, decided.firmUserId)
        : { kind: 'ADVISOR_CONSOLE_APPLICATION', external_firm_application_id: decided.applicationId };
      const signed = await surfaceSignIn(ctx.deps, tx, pending.identity_id, surface);
      return ok({ ...signed, surface: surface.kind as 'ADVISOR_CONSOLE' | 'ADVISOR_CONSOLE_APPLICATION' });
    });
  },

  [firmApplicationGet.id]: async (ctx) => {
    const actor = surfaceActorOf(ctx, 'ADVISOR_CONSOLE_APPLICATION');
    return ok(await readApplication(ctx.db, actor.surface.external_firm_application_id));
  },

  [firmGet.id]: async (ctx) => ok(await firmView(ctx.db, await caller(ctx), ctx.deps.now())),

  [firmInvitesCreate.id]: async (ctx) =>
    ok(await createInvite(ctx.deps, ctx.db, await caller(ctx), ctx.input.body, ctx.deps.now(), mailLinks(ctx)), 201),

  [firmInvitesResend.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await resendInvite(ctx.deps, tx, await caller({ ...ctx, db: tx }), ctx.input.params.invite_id, ctx.deps.now(), mailLinks(ctx)))),

  [firmInvitesDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await deleteInvite(tx, await caller({ ...ctx, db: tx }), ctx.input.params.invite_id, ctx.deps.now()))),

  [firmInvitesAccept.id]: async (ctx) => {
    const now = ctx.deps.now();
    const passwordHash = await hashPassword(ctx.input.body.password);
    return ctx.deps.db.transaction(async (tx) => {
      const inv = await openInvite(tx, ctx.input.params.token, now);
      const [existing] = await tx.query<{ id: string; password_hash: string }>(
        'SELECT id::text, password_hash FROM identities WHERE lower(email) = $1', [inv.email],
      );
      // The link proves the mailbox, not the person's password: an account with one signs in first.
      if (existing && existing.password_hash !== NO_PASSWORD) {
        throw new ApiError('REQUEST_7001', 'This email already has a Ledgerline account: sign in, then accept the invite.');
      }
      const identityId = existing?.id ?? crypto.randomUUID();
      if (existing) await tx.query('UPDATE identities SET password_hash = $2 WHERE id = $1', [identityId, passwordHash]);
      else await tx.query('INSERT INTO identities (id, email, password_hash) VALUES ($1, $2, $3)', [identityId, inv.email, passwordHash]);
      await markEmailVerified(tx, identityId, new Date(now));
      const firmUserId = await joinFirm(tx, inv, identityId, ctx.input.body, now);
      return ok(await surfaceSignIn(ctx.deps, tx, identityId, consoleClaim(inv.firm_id, firmUserId)));
    });
  },

  [firmInvitesAcceptSignedIn.id]: async (ctx) => {
    const who = ctx.actor ?? ctx.surfaceActor;
    if (!who) throw new ApiError('AUTH_7002');
    const now = ctx.deps.now();
    const inv = await openInvite(ctx.db, ctx.input.params.token, now);
    const [identity] = await ctx.db.query<{ email: string }>('SELECT email FROM identities WHERE id = $1', [who.identityId]);
    if (foldEmail(identity!.email) !== foldEmail(inv.email)) throw new ApiError('AUTH_7018');
    await markEmailVerified(ctx.db, who.identityId, new Date(now));
    const firmUserId = await joinFirm(ctx.db, inv, who.identityId, ctx.input.body, now);
    return ok(await surfaceSignIn(ctx.deps, ctx.db, who.identityId, consoleClaim(inv.firm_id, firmUserId), { sessionId: who.sessionId }));
  },

  [firmUsersDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await removeFirmUser(tx, await caller({ ...ctx, db: tx }), ctx.input.params.firm_user_id, ctx.deps.now()))),
} satisfies DomainHandlers;
