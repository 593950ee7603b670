import {
  betaEnrollmentDelete, betaEnrollmentGet, betaEnrollmentPut, cardBrandingDelete, cardBrandingGet, cardBrandingPut, cardLogoGet, cardLogoPut,
  securityContactDelete, securityContactGet, securityContactPut, settingReset, settingsList,
} from '../../schema/api/calls-business-settings.ts';
import { cardReissueState, cardRenewal } from '../../schema/api/calls-card-renewal.ts';
import { ApiError } from '../core/errors.ts';
import { cardReissue, cardRenewal as renewalOf } from '../domain/card-renewal.ts';
import { joinBetaProgrammes, leaveBetaProgrammes, readBetaEnrollment } from '../domain/business-settings/beta.ts';
import { deleteCardBranding, putCardLogo, readCardBranding, readCardLogo, setCardColor } from '../domain/business-settings/branding.ts';
import { deleteSecurityContact, readSecurityContact, setSecurityContact } from '../domain/business-settings/contact.ts';
import { listBusinessSettings, resetBusinessSetting } from '../domain/business-settings/settings.ts';
import { fileHeaders } from '../http/file-headers.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';

/**
 * Issue 32: business settings by type, security contact, beta enrollment and card branding
 * (calls-business-settings.ts), and the card renewal and reissue reads (calls-card-renewal.ts).
 * PUT and DELETE open their own transaction (register() opens one for POST/PATCH only).
 */
const now = (ctx: { deps: { now: () => number } }) => new Date(ctx.deps.now());

export const businessSettingHandlers = {
  [settingsList.id]: async (ctx) => ok(await listBusinessSettings(ctx.db, actorOf(ctx).user)),
  [settingReset.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await resetBusinessSetting(tx, actorOf(ctx).user, ctx.input.params.type, { mail: ctx.deps, now: now(ctx) }))),

  [securityContactGet.id]: async (ctx) => ok(await readSecurityContact(ctx.db, actorOf(ctx).user)),
  [securityContactPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await setSecurityContact(tx, ctx.deps, actorOf(ctx).user, ctx.input.body, now(ctx)))),
  [securityContactDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => ok(await deleteSecurityContact(tx, ctx.deps, actorOf(ctx).user))),

  [betaEnrollmentGet.id]: async (ctx) => ok(await readBetaEnrollment(ctx.db, actorOf(ctx).businessId)),
  [betaEnrollmentPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await joinBetaProgrammes(tx, ctx.deps, actorOf(ctx).user, ctx.input.body.programmes, now(ctx)))),
  [betaEnrollmentDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => ok(await leaveBetaProgrammes(tx, ctx.deps, actorOf(ctx).user))),

  [cardBrandingGet.id]: async (ctx) => ok(await readCardBranding(ctx.db, actorOf(ctx).businessId)),
  [cardBrandingPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await setCardColor(tx, actorOf(ctx).user, ctx.input.body.color, now(ctx)))),
  [cardBrandingDelete.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => ok(await deleteCardBranding(tx, actorOf(ctx).user))),
  [cardLogoPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) => {
    const contentType = (ctx.c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    return ok(await putCardLogo(tx, actorOf(ctx).user, contentType, ctx.input.body, now(ctx)));
  }),
  [cardLogoGet.id]: async (ctx) => {
    const logo = await readCardLogo(ctx.db, actorOf(ctx).businessId);
    if (!logo) throw new ApiError('REQUEST_7004', 'This business has no card logo.');
    return ctx.c.body(new Uint8Array(logo.bytes), 200, {
      ...fileHeaders(logo.content_type, `card-logo.${logo.content_type === 'image/png' ? 'png' : 'jpg'}`),
      'cache-control': 'private, no-cache', etag: `"${logo.sha256}"`,
    });
  },

  [cardRenewal.id]: async (ctx) => ok(await renewalOf(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid, now(ctx))),
  [cardReissueState.id]: async (ctx) => ok(await cardReissue(ctx.db, actorOf(ctx).user, ctx.input.params.card_uuid)),
} satisfies DomainHandlers;
