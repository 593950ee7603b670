/**
 * Issue 32, platform: the OpenAPI document (schema/openapi/), billing subscriptions
 * (domain/billing/), the maintenance window (domain/maintenance.ts) and its gate.
 */
import { readFileSync } from 'node:fs';
import type { MiddlewareHandler } from 'hono';
import { CATALOGUE } from '../../schema/api/calls.ts';
import {
  cancelSubscription, getMaintenance, listSubscriptions, openApiDocument, startSubscription,
} from '../../schema/api/calls-platform.ts';
import { errorBody } from '../../schema/errors.ts';
import { ledgerlineOpenApi } from '../../schema/openapi/document.ts';
import type { OpenApiDocument } from '../../schema/openapi/generate.ts';
import type { AppDeps } from '../core/deps.ts';
import * as billing from '../domain/billing/subscriptions.ts';
import { maintenanceState } from '../domain/maintenance.ts';
import { ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf } from './admin.ts';

/**
 * Built on first request and kept: the catalogue cannot change while the process runs, and the
 * build takes most of a second.
 */
let openApi: OpenApiDocument | null = null;
const productVersion = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const nowOf = (deps: AppDeps) => new Date(deps.now());

export const platformHandlers = {
  [openApiDocument.id]: async () => {
    openApi ??= ledgerlineOpenApi(productVersion());
    return ok(openApi);
  },

  [getMaintenance.id]: async (ctx) => ok(await maintenanceState(ctx.db, nowOf(ctx.deps))),

  [listSubscriptions.id]: async (ctx) => {
    const { businessId } = adminOf(ctx);
    return ok({ items: await billing.listSubscriptions(ctx.db, businessId, nowOf(ctx.deps)) });
  },

  [startSubscription.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    const { product } = ctx.input.params;
    return ok(await ctx.deps.db.transaction((tx) => billing.startSubscription(tx, businessId, user.id, product, nowOf(ctx.deps))));
  },

  [cancelSubscription.id]: async (ctx) => {
    const { businessId, user } = adminOf(ctx);
    const { product } = ctx.input.params;
    return ok(await ctx.deps.db.transaction((tx) =>
      billing.cancelSubscription(tx, businessId, user.id, product, ctx.input.body, nowOf(ctx.deps))));
  },
} satisfies DomainHandlers;

/** POSTs that only read (exports and queries): they keep working during maintenance, as GETs do. */
const READ_ONLY_POSTS = CATALOGUE.filter((call) => call.readOnly).map((call) => new RegExp(`^${call.path.replace(/:[a-z_]+/g, '[^/]+')}/?$`));
/** Signing out only ends a session: refusing it would leave a token alive the person meant to end. */
const ALWAYS_ALLOWED = [/^\/v1\/auth\/users\/current\/sign-out\/?$/];

/**
 * `app.use('/v1/auth/*', maintenanceGate(deps))`: during a maintenance window every write answers
 * 503 INFRA_7001 with Retry-After (seconds to the window's end, at least 1) and the operator's
 * message; reads, read-only POSTs, sign-out and everything outside /v1/auth (sign-in) go through.
 */
export function maintenanceGate(deps: AppDeps): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (READ_ONLY_POSTS.some((re) => re.test(path)) || ALWAYS_ALLOWED.some((re) => re.test(path))) return next();
    const now = deps.now();
    const state = await maintenanceState(deps.db, new Date(now));
    if (!state.active || !state.until) return next();
    const waitSeconds = Math.max(1, Math.ceil((Date.parse(state.until) - now) / 1000));
    c.header('Retry-After', String(waitSeconds));
    const message = `Scheduled maintenance is in progress until ${state.until}.${state.message ? ` ${state.message}` : ''} Nothing was changed; try again then.`;
    return c.json(errorBody('INFRA_7001', message), 503);
  };
}
