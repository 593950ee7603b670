import { businessReferrals, referralsCreate, referralsDelete, referralsList } from '../../schema/api/calls-external-firm-referrals.ts';
import { firmCallerOf } from '../domain/external-firms/firm-caller.ts';
import { businessReferral, createReferral, deleteReferral, listReferrals } from '../domain/external-firms/referrals.ts';
import { actorOf, ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';

/** Issue 31: referral codes of a firm, and a business's referral (calls-external-firm-referrals.ts). */
export const firmReferralHandlers = {
  [referralsList.id]: async (ctx) => ok({ data: await listReferrals(ctx.db, await firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'))) }),
  [referralsCreate.id]: async (ctx) =>
    ok(await createReferral(ctx.db, await firmCallerOf(ctx.db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE')), ctx.input.body.label, ctx.deps.now()), 201),
  [referralsDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await deleteReferral(tx, await firmCallerOf(tx, surfaceActorOf(ctx, 'ADVISOR_CONSOLE')), ctx.input.params.referral_id, ctx.deps.now()))),
  [businessReferrals.id]: async (ctx) => ok(await businessReferral(ctx.db, actorOf(ctx))),
} satisfies DomainHandlers;
