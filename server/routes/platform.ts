/**
 * Issue 32, platform: the OpenAPI document (schema/openapi/), billing subscriptions
 * (domain/billing/), the maintenance window (domain/maintenance.ts) and its gate.
 */
import { readFileSync } from 'node:fs';
import type { Hono, MiddlewareHandler } from 'hono';
import { CATALOGUE } from '../../schema/api/calls.ts';
import {
  cancelSubscription, confirmPhoneNumber, getMaintenance, getPhoneNumber, listSubscriptions, openApiDocument, sendPhoneCode,
  startSubscription,
} from '../../schema/api/calls-platform.ts';
import { errorBody } from '../../schema/errors.ts';
import { ledgerlineOpenApi } from '../../schema/openapi/document.ts';
import type { OpenApiDocument } from '../../schema/openapi/generate.ts';
import type { AppDeps } from '../core/deps.ts';
import * as billing from '../domain/billing/subscriptions.ts';
import { maintenanceState } from '../domain/maintenance.ts';
import * as phone from '../domain/phone/confirmation.ts';
import { takeRateLimit, type Limit } from '../auth/rate-limit.ts';
import { actorOf, ok, type DomainHandlers } from '../http/handler.ts';
import { adminOf } from './admin.ts';
import { refuse } from './identity-code-limits.ts';

/**
 * Built on first request and kept: the catalogue cannot change while the process runs, and the
 * build takes most of a second.
 */
let openApi: OpenApiDocument | null = null;
const productVersion = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const nowOf = (deps: AppDeps) => new Date(deps.now());

/** Texts cost money and reach a stranger's phone: 5 codes an hour per person, 10 a day per number. */
const textLimits = (identityId: string, phoneNumber: string): Limit[] => [
  { key: `phone-code:identity:${identityId}`, max: 5, windowSeconds: 3600 },
  { key: `phone-code:number:${phoneNumber}`, max: 10, windowSeconds: 86_400 },
];

const openApiOf = () => (openApi ??= ledgerlineOpenApi(productVersion()));

export const platformHandlers = {
  [openApiDocument.id]: async () => ok(openApiOf()),

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

  [getPhoneNumber.id]: async (ctx) => ok(await phone.phoneState(ctx.db, actorOf(ctx).identityId, nowOf(ctx.deps))),

  [sendPhoneCode.id]: async (ctx) => {
    const { identityId } = actorOf(ctx);
    const { phone_number } = ctx.input.body;
    await takeRateLimit(ctx.c, ctx.db, textLimits(identityId, phone_number), ctx.deps.now());
    return ok(await phone.sendPhoneCode(ctx.deps, ctx.db, identityId, phone_number, nowOf(ctx.deps)));
  },

  [confirmPhoneNumber.id]: async (ctx) => {
    const result = await phone.confirmPhoneCode(ctx.db, actorOf(ctx).identityId, ctx.input.body.code, nowOf(ctx.deps));
    // Answered, not thrown: the wrong guess just counted must commit with this transaction.
    return result.refusal ? refuse(result.refusal) : ok(result.state);
  },
} satisfies DomainHandlers;

/** How long the gate trusts its last read of the maintenance row. */
const STATE_TTL_MS = 5_000;

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
  let cached: { at: number; state: Awaited<ReturnType<typeof maintenanceState>> } | null = null;
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    if (READ_ONLY_POSTS.some((re) => re.test(path)) || ALWAYS_ALLOWED.some((re) => re.test(path))) return next();
    const now = deps.now();
    // One read per few seconds, not one per write: the ops command's switch is seen within STATE_TTL_MS.
    if (!cached || now - cached.at >= STATE_TTL_MS || now < cached.at) cached = { at: now, state: await maintenanceState(deps.db, new Date(now)) };
    const state = cached.state.until && Date.parse(cached.state.until) <= now ? { ...cached.state, active: false } : cached.state;
    if (!state.active || !state.until) return next();
    const waitSeconds = Math.max(1, Math.ceil((Date.parse(state.until) - now) / 1000));
    c.header('Retry-After', String(waitSeconds));
    const message = `Scheduled maintenance is in progress until ${state.until}.${state.message ? ` ${state.message}` : ''} Nothing was changed; try again then.`;
    return c.json(errorBody('INFRA_7001', message), 503);
  };
}

/**
 * What app.ts mounts before the catalogue (`registerPlatformRoutes(app, deps)`): the maintenance
 * gate in front of every /v1/auth call, and the document at the path API tools look for,
 * `/v1/openapi.json` (the catalogue's own public path is /v1/public/openapi.json).
 */
export function registerPlatformRoutes(app: Hono, deps: AppDeps): void {
  app.use('/v1/auth/*', maintenanceGate(deps));
  app.get('/v1/openapi.json', (c) => c.json(openApiOf()));
}
