import {
  firmApplicationsList, firmApplicationsPut, firmApplicationsWithdraw, vendorNetworkApplicationsPut,
} from '../../schema/api/calls-financing-starts.ts';
import {
  listFirmApplications, putFirmApplication, putVendorApplication, withdrawFirmApplication,
} from '../domain/applications/start-for.ts';
import { firmCallerOf } from '../domain/external-firms/firm-caller.ts';
import type { Queryable } from '../db/db.ts';
import { mailLinks } from '../http/mail-links.ts';
import { ok, surfaceActorOf, type DomainHandlers } from '../http/handler.ts';

/**
 * Issue 31: financing applications started by a firm for a client, or by a network vendor for its
 * own company (schema/api/calls-financing-starts.ts; rules in domain/applications/start-for.ts).
 * PUT and DELETE run outside register's transaction, so each write opens its own.
 */
const firmCaller = (ctx: Parameters<typeof surfaceActorOf>[0], db: Queryable) => firmCallerOf(db, surfaceActorOf(ctx, 'ADVISOR_CONSOLE'));

export const financingStartHandlers = {
  [firmApplicationsList.id]: async (ctx) => ok({ data: await listFirmApplications(ctx.db, await firmCaller(ctx, ctx.db)) }),

  [firmApplicationsPut.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await putFirmApplication(ctx.deps, tx, await firmCaller(ctx, tx), ctx.input.body, ctx.deps.now(), mailLinks(ctx)))),

  [firmApplicationsWithdraw.id]: async (ctx) => ctx.deps.db.transaction(async (tx) =>
    ok(await withdrawFirmApplication(tx, await firmCaller(ctx, tx), ctx.input.params.financing_application_id, ctx.deps.now()))),

  [vendorNetworkApplicationsPut.id]: async (ctx) => {
    const portal = surfaceActorOf(ctx, 'VENDOR_PORTAL');
    return ctx.deps.db.transaction(async (tx) =>
      ok(await putVendorApplication(tx, portal.identityId, portal.surface.network_vendor_id, ctx.input.body.id, ctx.deps.now())));
  },
} satisfies DomainHandlers;
