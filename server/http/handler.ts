import type { Context } from 'hono';
import type { CATALOGUE } from '../../schema/api/calls.ts';
import type { CallDef, CallParsed } from '../../schema/api/define-call.ts';
import type { Actor, SurfaceActor } from '../core/actor.ts';
import type { Surface } from '../../schema/api/scopes.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';

/** A JSON answer; handlers that stream return a raw Response instead. */
export type Reply = { status: number; body: unknown };

/** A body that is JSON text already (the feed's pages): sent as it is, never stringified again. */
class JsonText {
  constructor(readonly text: string) {}
}

export type HandlerCtx<C extends CallDef> = {
  c: Context;
  deps: AppDeps;
  /** The transaction for POST/PATCH (writes, idempotency), else the database. */
  db: Queryable;
  /** The business caller: null on public calls and on a token of another surface (issue 31). */
  actor: Actor | null;
  /** The caller on another surface than the main app (issue 31), else null. */
  surfaceActor: SurfaceActor | null;
  input: CallParsed<C>;
};
export type Handler<C extends CallDef> = (ctx: HandlerCtx<C>) => Promise<Reply | Response>;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });
/** `ok` for a body already serialized as JSON text. */
export const okJsonText = (text: string, status = 200): Reply => ({ status, body: new JsonText(text) });
export const replyText = (reply: Reply): string => (reply.body instanceof JsonText ? reply.body.text : JSON.stringify(reply.body));

/** The acting user of an authenticated call (register guarantees it; this narrows the type). */
export function actorOf(ctx: { actor: Actor | null }): Actor {
  if (!ctx.actor) throw new ApiError('AUTH_7002');
  return ctx.actor;
}

/**
 * The caller on surface `kind` (issue 31): the surface gate admits only the call's own surfaces,
 * so on a call of that surface this narrows; a call open to several answers SURFACE_7001 for the others.
 */
export function surfaceActorOf<K extends Exclude<Surface, 'BUSINESS'>>(
  ctx: { surfaceActor: SurfaceActor | null },
  kind: K,
): SurfaceActor & { surface: Extract<SurfaceActor['surface'], { kind: K }> } {
  const a = ctx.surfaceActor;
  if (!a) throw new ApiError('SURFACE_7001');
  if (a.surface.kind !== kind) throw new ApiError('SURFACE_7001');
  return a as SurfaceActor & { surface: Extract<SurfaceActor['surface'], { kind: K }> };
}

/** A served call: everything in CATALOGUE (schema/api/calls.ts) is served, so its ids are the keys. */
export type ServedCall = (typeof CATALOGUE)[number];
export type CallId = ServedCall['id'];
export type CallById<Id extends CallId> = Extract<ServedCall, { id: Id }>;

/** A handler that exists only under a switch of createApp (dev.outbox); off, its path is not registered at all. */
export type SwitchedHandler<C extends CallDef> = { handler: Handler<C>; enabled: (deps: AppDeps) => boolean };
/**
 * A handler with slow outside work (fetching an identity provider's metadata, a DNS lookup) that
 * must not run inside the transaction register opens for POST/PATCH: `prepare` runs first, on the
 * database outside any transaction, and its result is handed to `handler`, which runs as usual
 * (in the transaction, under the Idempotency-Key). A repeated key runs `prepare` again before the
 * stored answer is replayed. Made with `prepared()`.
 */
export type PreparedHandler<C extends CallDef> = {
  prepare: (ctx: HandlerCtx<C>) => Promise<unknown>;
  handler: (ctx: HandlerCtx<C>, prepared: unknown) => Promise<Reply | Response>;
};
export type Route<C extends CallDef> = Handler<C> | SwitchedHandler<C> | PreparedHandler<C>;

/**
 * Exactly one route per catalogue entry, typed by that entry's params, query and body. The
 * per-domain maps are `satisfies DomainHandlers` (no unknown id, handlers typed by their call);
 * routes/handlers.ts joins them `satisfies HandlerMap`, so a catalogue entry without a handler
 * does not compile.
 */
export type HandlerMap = { [Id in CallId]: Route<CallById<Id>> };
export type DomainHandlers = Partial<HandlerMap>;

/** A PreparedHandler, typed end to end (the route map keeps it as `unknown`). */
export function prepared<C extends CallDef, P>(
  prepare: (ctx: HandlerCtx<C>) => Promise<P>,
  handler: (ctx: HandlerCtx<C>, prepared: P) => Promise<Reply | Response>,
): PreparedHandler<C> {
  return { prepare, handler: handler as PreparedHandler<C>['handler'] };
}

export const servedWhen = <C extends CallDef>(enabled: (deps: AppDeps) => boolean, handler: Handler<C>): SwitchedHandler<C> => ({
  handler,
  enabled,
});
