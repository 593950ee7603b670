import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import type { CallDef, CallParsed } from '../../schema/api/define-call.ts';
import { IDEMPOTENCY_HEADER } from '../../schema/api/scopes.ts';
import { validationMessages } from '../../schema/errors.ts';
import { recordAudit } from '../auth/audit.ts';
import type { Queryable } from '../db/db.ts';
import { authenticate, type Actor } from './actor.ts';
import type { AppDeps } from './deps.ts';
import { ApiError, validationError } from './errors.ts';
import { claimKey, completeKey, KEY_PATTERN, releaseKey, requestHash } from './idempotency.ts';

/** A JSON answer; handlers that stream return a raw Response instead. */
export type Reply = { status: number; body: unknown };

export type HandlerCtx<C extends CallDef> = {
  c: Context;
  deps: AppDeps;
  /** The transaction for POST/PATCH (writes, idempotency), else the database. */
  db: Queryable;
  /** Null only on public calls. */
  actor: Actor | null;
  input: CallParsed<C>;
};
export type Handler<C extends CallDef> = (ctx: HandlerCtx<C>) => Promise<Reply | Response>;

export const ok = (body: unknown, status = 200): Reply => ({ status, body });

/** The acting user of an authenticated call (register guarantees it; this narrows the type). */
export function actorOf(ctx: { actor: Actor | null }): Actor {
  if (!ctx.actor) throw new ApiError('AUTH_7002');
  return ctx.actor;
}

/**
 * Registers one catalogue call. Everything a route must enforce happens here, in this order:
 * authentication and scopes, validation of params/query/body, Idempotency-Key, then the handler.
 */
export function register<C extends CallDef>(app: Hono, deps: AppDeps, call: C, handler: Handler<C>): void {
  app.on(call.method, call.path, async (c) => {
    const actor = call.auth.kind === 'public' ? null : await authenticate(c, deps, call.auth);
    if (actor && call.method !== 'GET') return audited(deps, call, actor, c, () => handle(c, deps, call, actor, handler));
    return handle(c, deps, call, actor, handler);
  });
}

/** Every write by a signed-in caller is recorded with its outcome (and impersonator), refusals too. */
async function audited(deps: AppDeps, call: CallDef, actor: Actor, c: Context, run: () => Promise<Response>): Promise<Response> {
  const entry = {
    identityId: actor.identityId, spendUserId: actor.user.id, businessId: actor.businessId,
    impersonatorEmail: actor.claims.impersonator?.email ?? null, callId: call.id, method: call.method, path: new URL(c.req.url).pathname,
  };
  try {
    const res = await run();
    await recordAudit(deps.db, { ...entry, status: res.status });
    return res;
  } catch (err) {
    await recordAudit(deps.db, { ...entry, status: err instanceof ApiError ? err.status : 500 });
    throw err;
  }
}

async function handle<C extends CallDef>(c: Context, deps: AppDeps, call: C, actor: Actor | null, handler: Handler<C>): Promise<Response> {
  const rawBody = call.body ? await c.req.text() : '';
  const input = parseInput(c, call, rawBody);
  const base = { c, deps, actor, input };
  // Reads, and public calls (sign-in has no identity to scope a key by, and must not hold
  // PGlite's single connection through a slow password hash), run outside a transaction.
  if (!call.idempotent || !actor) return send(c, await handler({ ...base, db: deps.db }));

  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) {
    return send(c, await deps.db.transaction((tx) => handler({ ...base, db: tx })));
  }
  if (!KEY_PATTERN.test(key)) {
    throw validationError({ [IDEMPOTENCY_HEADER]: `${IDEMPOTENCY_HEADER} must be a valid key` });
  }
  const scope = `${actor.identityId}:${actor.businessId}`;
  const hash = requestHash(call.method, new URL(c.req.url).pathname, rawBody);
  return runOnce(c, deps, { scope, key, hash }, (tx) => handler({ ...base, db: tx }));
}


type KeyRef = { scope: string; key: string; hash: string };
/** Answers that mean "try again later": never stored against an Idempotency-Key. */
const TRANSIENT_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);

async function runOnce(c: Context, deps: AppDeps, ref: KeyRef, run: (tx: Queryable) => Promise<Reply | Response>) {
  const claim = await claimKey(deps.db, ref.scope, ref.key, ref.hash);
  if (claim.kind === 'mismatch') throw new ApiError('IDEMPOTENCY_7009');
  if (claim.kind === 'in_flight') throw new ApiError('IDEMPOTENCY_7010');
  if (claim.kind === 'replay') return sendText(c, claim.status, claim.body, true);
  try {
    const { status, text } = await deps.db.transaction(async (tx) => {
      const reply = await run(tx);
      if (reply instanceof Response) throw new Error('idempotent calls must answer JSON');
      const answer = { status: reply.status, text: JSON.stringify(reply.body) };
      await completeKey(tx, ref.scope, ref.key, answer.status, answer.text);
      return answer;
    });
    return sendText(c, status, text, false);
  } catch (err) {
    if (err instanceof ApiError && !TRANSIENT_STATUSES.has(err.status)) {
      // A refusal wrote nothing; remember it so a repeat gets the very same answer.
      await completeKey(deps.db, ref.scope, ref.key, err.status, JSON.stringify(err.body));
    } else {
      // A crash, or a refusal that says "not now" (throttled, busy, unavailable): the outcome is
      // not final, so the key is released and the same key may try again later.
      await releaseKey(deps.db, ref.scope, ref.key).catch(() => {});
    }
    throw err;
  }
}

function parseInput<C extends CallDef>(c: Context, call: C, rawBody: string): CallParsed<C> {
  const errors: Record<string, string> = {};
  const parse = (schema: z.ZodType | null, value: unknown) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    // §5 messages keyed by field path ("transaction_ids is required"); the first one wins.
    for (const [path, message] of Object.entries(validationMessages(result.error))) errors[path] ??= message;
    return undefined;
  };
  const params = parse(call.params, c.req.param());
  const query = parse(call.query, c.req.query());
  const body = parse(call.body, parseJson(rawBody));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { params, query, body } as CallParsed<C>;
}

function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw validationError({ body: 'body must be a valid JSON' });
  }
}

function send(c: Context, reply: Reply | Response): Response {
  if (reply instanceof Response) return reply;
  return sendText(c, reply.status, JSON.stringify(reply.body), false);
}

function sendText(c: Context, status: number, text: string, replayed: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
  if (replayed) headers['idempotent-replayed'] = 'true';
  return c.body(text, status as 200, headers);
}
