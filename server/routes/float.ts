import {
  acceptFlexOffer as acceptCall, createFlexOffer as offerCall, getFlexSettings, listFlexRecords as listCall, onboardFlex as onboardCall,
  retryInstallmentPayment, updateFlexSettings as updateCall,
} from '../../schema/api/calls-float.ts';
import { acceptFlexOffer, createFlexOffer } from '../domain/flex/offers.ts';
import { listFlexRecords, retryInstallment } from '../domain/flex/installments.ts';
import {
  assertFlexAdmin, assertMayUseFlex, assertMayViewFlex, onboardFlex, readFlexLine, settingsDoc, updateFlexSettings,
} from '../domain/flex/settings.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { nowOf } from './bill-access.ts';

/**
 * Issue 30 §7 "Float" (domain/flex/). §6: reading (settings, records) is for admins and AP clerks
 * (403 FORBIDDEN_7003); onboarding and settings changes for admins (403 FORBIDDEN_7003); offers,
 * accepting and retrying installments for admins, or AP clerks while the business allows it
 * (403 FLEX_7001). Every refusal comes before any lookup of the object named.
 */
export const floatHandlers = {
  [onboardCall.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    assertFlexAdmin(user);
    return ok(await onboardFlex(ctx.db, user, ctx.input.body, nowOf(ctx)));
  },
  [getFlexSettings.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    assertMayViewFlex(user);
    return ok(settingsDoc(await readFlexLine(ctx.db, user.business_id)));
  },
  [updateCall.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    assertFlexAdmin(user);
    return ok(await updateFlexSettings(ctx.db, user.business_id, ctx.input.body.ap_clerks_can_flex, nowOf(ctx)));
  },
  [offerCall.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    await assertMayUseFlex(ctx.db, user);
    return ok(await createFlexOffer(ctx.db, user, ctx.input.body.bill_id, nowOf(ctx)));
  },
  [acceptCall.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    await assertMayUseFlex(ctx.db, user);
    return ok(await acceptFlexOffer(ctx.db, user, ctx.input.params.offer_id, ctx.input.body.term_days, nowOf(ctx)));
  },
  [listCall.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    assertMayViewFlex(user);
    return ok(await listFlexRecords(ctx.db, user.business_id, ctx.input.query.bill_id));
  },
  [retryInstallmentPayment.id]: async (ctx) => {
    const { user } = actorOf(ctx);
    await assertMayUseFlex(ctx.db, user);
    return ok(await retryInstallment(ctx.db, user.business_id, ctx.input.params.flex_installment_payment_uuid, nowOf(ctx)));
  },
} satisfies DomainHandlers;
