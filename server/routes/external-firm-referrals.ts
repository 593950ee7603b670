import { logoDelete, logoGet, logoPut } from '../../schema/api/calls-external-firm-logo.ts';
import { businessReferrals, referralsCreate, referralsDelete, referralsList } from '../../schema/api/calls-external-firm-referrals.ts';
import { ApiError } from '../core/errors.ts';
import { firmCallerOf } from '../domain/external-firms/firm-caller.ts';
import { deleteLogo, putLogo, readLogo } from '../domain/external-firms/logo.ts';
import { businessReferral, createReferral, deleteReferral, listReferrals } from '../domain/external-firms/referrals.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';

/** Issue 31: referral codes of a firm and a business's referral (calls-external-firm-referrals.ts), the firm's logo. */
export const firmReferralHandlers = {
  [referralsList.id]: async (ctx) => ok({ data: await listReferrals(ctx.db, await firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'))) }),
  [referralsCreate.id]: async (ctx) =>
    ok(await createReferral(ctx.db, await firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE')), ctx.input.body.label, ctx.deps.now()), 201),
  [referralsDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await deleteReferral(tx, await firmCallerOf(tx, surfaceActorOf(ctx, 'ADVISOR_CONSOLE')), ctx.input.params.referral_id, ctx.deps.now()))),
  [businessReferrals.id]: async (ctx) => ok(await businessReferral(ctx.db, actorOf(ctx))),
} satisfies DomainHandlers;

/** Issue 31: the firm's logo (calls-external-firm-logo.ts). */
export const firmLogoHandlers = {
  [logoPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => {
    const caller = await firmCallerOf(tx, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'));
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await putLogo(tx, caller, contentType, ctx.input.body, ctx.deps.now()));
  }),
  [logoDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await deleteLogo(tx, await firmCallerOf(tx, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'))))),
  [logoGet.id]: async (ctx) => {
    const logo = await readLogo(ctx.db, await firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE')));
    if (!logo) throw new ApiError('REQUEST_7004', 'Your firm has no logo.');
    const ext = logo.content_type === 'image/png' ? 'png' : 'jpg';
    return ctx.c.body(new Uint8Array(logo.bytes), 200, {
      ...fileHeaders(logo.content_type, `logo.${ext}`), 'cache-control': 'private, no-cache', etag: `"${logo.sha256}"`,
    });
  },
} satisfies DomainHandlers;
