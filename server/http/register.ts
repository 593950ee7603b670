import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { CATALOGUE } from '../../schema/api/calls.ts';
import type { CallDef, CallParsed, UploadSpec } from '../../schema/api/define-call.ts';
import { IDEMPOTENCY_HEADER, surfaceSubjectId } from '../../schema/api/scopes.ts';
import { invalidTypeMessage, validationMessages } from '../../schema/errors.ts';
import { auditDetailOf, recordAudit } from '../auth/audit.ts';
import { assertImpersonationMayCall } from '../auth/support-access.ts';
import { assertAdvisorMayCall } from '../auth/advisor-access.ts';
import { assertWizardTokenMayCall } from '../domain/expense-policies/wizard-token.ts';
import { isSurfaceActor, type Actor, type Caller } from '../core/actor.ts';
import type { AppDeps } from '../core/deps.ts';
import { ApiError, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { actingDb, actingOf, requestDevice } from './acting.ts';
import { rememberDevice } from './devices.ts';
import { authenticate } from './authenticate.ts';
import { checkJsonShape, parseJsonBody, PROTOTYPE_KEYS, prototypeKeyRefusal } from './json-body.ts';
import { replyText, type Handler, type HandlerMap, type PreparedHandler, type Reply, type Route } from './handler.ts';
import { KEY_PATTERN, requestHash, runWithKey, type KeyRef } from './idempotency.ts';

/**
 * Registers every catalogue call with its route from `handlers`, static segments before
 * parameters (`routeOrder`): Hono runs the first registered route that matches, so
 * `DELETE …/reimbursements/bulk` wins over `DELETE …/reimbursements/:reimbursement_uuid`, as a
 * static segment wins in every real router (served-catalogue.test.ts checks each entry is the
 * first match of its own path). A switched-off route is not registered, so its path answers 404
 * like any unknown one.
 */
export function registerCatalogue(app: Hono, deps: AppDeps, handlers: HandlerMap): void {
  for (const call of [...CATALOGUE].sort(routeOrder)) {
    // The map is keyed by the call's own id (HandlerMap), but TypeScript cannot correlate a
    // union-typed call with the member of the map it indexes, hence the one widening here.
    const route = handlers[call.id] as Route<CallDef>;
    if (typeof route === 'function') register(app, deps, call, route);
    else if ('prepare' in route) register(app, deps, call, route.handler as Handler<CallDef>, route.prepare);
    else if (route.enabled(deps)) register(app, deps, call, route.handler);
  }
}

/** A path as the kinds of its segments: 0 static, 1 a `:parameter`. */
export function segmentKinds(path: string): number[] {
  return path.split('/').filter(Boolean).map((s) => (s.startsWith(':') ? 1 : 0));
}

/**
 * Registration order: by segment kinds, lexicographically (a static segment before a parameter
 * at the first position where two paths differ in kind); equal kinds keep catalogue order (the
 * sort is stable). Two routes can only both match a path of the same length (a parameter is one
 * segment), and of those the one static where the other is a parameter comes first.
 */
export function routeOrder(a: { path: string }, b: { path: string }): number {
  const ka = segmentKinds(a.path);
  const kb = segmentKinds(b.path);
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!;
  return ka.length - kb.length;
}

/**
 * Registers one catalogue call. Everything a route must enforce happens here, in this order:
 * authentication and scopes, the impersonation gate (auth/support-access.ts), validation of
 * params/query/body, Idempotency-Key, then the handler.
 */
export function register<C extends CallDef>(app: Hono, deps: AppDeps, call: C, handler: Handler<C>, prepare?: PreparedHandler<C>['prepare']): void {
  app.on(call.method, call.path, async (c) => {
    // Support acting as someone is held to its grant before the scope gate, so a sensitive call
    // answers why (SUPPORT_7003) rather than asking for a step-up it can never do.
    const caller = call.auth.kind === 'public' ? null : await authenticate(c, deps, call, (a) => impersonationGate(deps, call, a, c));
    if (caller && call.method !== 'GET') return audited(deps, call, caller, c, () => handle(c, deps, call, caller, handler, prepare));
    return handle(c, deps, call, caller, handler, prepare);
  });
}

/** The audit row of a call: a business caller's spend user and business, or the surface it acts on (issue 31). */
const auditEntry = (call: CallDef, caller: Caller, c: Context) => {
  const common = {
    identityId: caller.identityId, impersonatorEmail: caller.claims.impersonator?.email ?? null,
    callId: call.id, method: call.method, path: new URL(c.req.url).pathname,
    externalFirmId: caller.claims.external_firm_id ?? null,
    // A read-only POST changed nothing: its row need not wait for a WAL flush (auth/audit.ts).
    readOnly: call.readOnly,
  };
  if (isSurfaceActor(caller)) {
    return { ...common, spendUserId: null, businessId: null, surface: caller.surface.kind, surfaceId: surfaceSubjectId(caller.surface) };
  }
  // A firm user inside a client business: the row names the firm user as well as its hidden spend user.
  return { ...common, spendUserId: caller.user.id, businessId: caller.businessId, surface: 'BUSINESS' as const, surfaceId: caller.advisor?.firmUserId ?? null };
};

/**
 * The impersonation gate (auth/support-access.ts), then the advisor gate (auth/advisor-access.ts,
 * issue 31); a refused write attempt is audited like any refusal.
 */
async function impersonationGate(deps: AppDeps, call: CallDef, actor: Actor, c: Context): Promise<void> {
  try {
    assertImpersonationMayCall(call, actor);
    assertAdvisorMayCall(call, actor);
  } catch (err) {
    if (call.method !== 'GET' && err instanceof ApiError) await recordAudit(deps.db, { ...auditEntry(call, actor, c), status: err.status });
    throw err;
  }
}

/** Every write by a signed-in caller is recorded with its outcome (and impersonator), refusals too. */
async function audited(deps: AppDeps, call: CallDef, caller: Caller, c: Context, run: () => Promise<Response>): Promise<Response> {
  const entry = auditEntry(call, caller, c);
  try {
    const res = await run();
    await recordAudit(deps.db, { ...entry, status: res.status, detail: res.ok ? auditDetailOf(c.req.raw) : null });
    return res;
  } catch (err) {
    await recordAudit(deps.db, { ...entry, status: err instanceof ApiError ? err.status : 500 });
    throw err;
  }
}

async function handle<C extends CallDef>(
  c: Context, appDeps: AppDeps, call: C, caller: Caller | null, plainHandler: Handler<C>, prepare?: PreparedHandler<C>['prepare'],
): Promise<Response> {
  const actor = caller && !isSurfaceActor(caller) ? caller : null;
  const surfaceActor = caller && isSurfaceActor(caller) ? caller : null;
  // A signed-in write's transactions carry who makes it (field-change history, issue 24).
  const deps = actor && call.method !== 'GET' ? { ...appDeps, db: actingDb(appDeps.db, actingOf(c, actor)) } : appDeps;
  // Issue 32: the device a write names gets its name, for event history ("from Chrome on Windows").
  if (actor && call.method !== 'GET') await rememberDevice(appDeps.db, actor.user.business_id, requestDevice(c), c.req.header('User-Agent'));
  const upload = call.upload ? await readUpload(c, call.upload) : null;
  // An upload's identity for the Idempotency-Key is its declared type and the bytes' digest.
  const rawBody = upload ? `${upload.contentType}\n${createHash('sha256').update(upload.bytes).digest('hex')}` : await readBody(c);
  const input = parseInput(c, call, upload ? null : rawBody, upload?.bytes);
  // §6 missing-items tokens: only the holder's own items, only the wizard's fields (issue 29).
  if (actor) await assertWizardTokenMayCall(deps.db, call, actor, input);
  const base = { c, deps, actor, surfaceActor, input };
  // Slow outside work (PreparedHandler) before any transaction is opened.
  let handler = plainHandler;
  if (prepare) {
    const ready = await prepare({ ...base, db: deps.db });
    handler = (ctx) => (plainHandler as PreparedHandler<C>['handler'])(ctx, ready);
  }
  // Reads, and public calls (sign-in has no identity to scope a key by, and must not hold
  // PGlite's single connection through a slow password hash), run outside a transaction.
  if (!call.idempotent || !caller) return send(c, await handler({ ...base, db: deps.db }));

  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) {
    return send(c, await deps.db.transaction((tx) => handler({ ...base, db: tx })));
  }
  if (!KEY_PATTERN.test(key)) {
    throw validationError({ [IDEMPOTENCY_HEADER]: `${IDEMPOTENCY_HEADER} must be a valid key` });
  }
  // A key is the caller's own: per identity and business, or per identity and surface (issue 31).
  const scope = actor ? `${actor.identityId}:${actor.businessId}` : `${caller.identityId}:${surfaceActor!.surface.kind}:${surfaceSubjectId(surfaceActor!.surface)}`;
  const hash = requestHash(call.method, new URL(c.req.url).pathname, rawBody);
  return runOnce(c, deps, { scope, key, hash }, (tx) => handler({ ...base, db: tx }));
}


/** Answers that mean "try again later": never stored against an Idempotency-Key. */
const TRANSIENT_STATUSES = new Set([408, 409, 429, 500, 502, 503, 504]);

async function runOnce(c: Context, deps: AppDeps, ref: KeyRef, run: (tx: Queryable) => Promise<Reply | Response>) {
  const outcome = await runWithKey(deps.db, ref, {
    async run(tx) {
      const reply = await run(tx);
      if (reply instanceof Response) throw new Error('idempotent calls must answer JSON');
      return { status: reply.status, text: replyText(reply) };
    },
    // A refusal wrote nothing: remember it so a repeat gets the very same answer.
    finalRefusal: (err) =>
      err instanceof ApiError && !TRANSIENT_STATUSES.has(err.status) ? { status: err.status, text: JSON.stringify(err.body) } : null,
    // A "not now" answered rather than thrown (a blocked code check ends its pending session,
    // which must commit) is not remembered either.
    keep: (answer) => !TRANSIENT_STATUSES.has(answer.status),
  });
  switch (outcome.kind) {
    case 'mismatch':
      throw new ApiError('IDEMPOTENCY_7009');
    case 'in_flight':
      // The first request with this key is still running: the client asks again, same key.
      c.header('Retry-After', '1');
      throw new ApiError('IDEMPOTENCY_7010');
    case 'refused':
      throw outcome.error;
    case 'replay':
      return sendText(c, outcome.answer.status, outcome.answer.text, true);
    case 'ran':
      return sendText(c, outcome.answer.status, outcome.answer.text, false);
  }
}

/**
 * The raw bytes of a file upload (the catalogue's UploadSpec): the declared type must be one the
 * call takes (415), the body not empty (422). The size cap is app.ts's body limit for the call's
 * path (refused from Content-Length before reading, or as soon as the read passes it).
 */
async function readUpload(c: Context, spec: UploadSpec): Promise<{ contentType: string; bytes: Uint8Array }> {
  const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!spec.contentTypes.includes(contentType)) {
    throw new ApiError('UPLOAD_7101', `This file type is not supported. Send one of: ${spec.contentTypes.join(', ')}.`);
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length === 0) throw new ApiError('UPLOAD_7104');
  if (bytes.length > spec.maxBytes) throw uploadTooLarge(spec);
  return { contentType, bytes };
}

export const uploadTooLarge = (spec: UploadSpec) =>
  new ApiError('UPLOAD_7103', `The file is too large: at most ${Math.floor(spec.maxBytes / (1024 * 1024))} MB.`);

/** `application/json`, with or without parameters (`; charset=utf-8`). */
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
/** A lone UTF-16 surrogate (a paired one is a single code point in a /u regex and never matches). */
const LONE_SURROGATE = /\p{Cs}/u;
const notUnicode = (path: string) => invalidTypeMessage(path, 'Unicode string');

/**
 * The body as text, or a refusal: anything but JSON is 415 (so a cross-site "simple" text/plain
 * POST never reaches a handler), and bytes that are not UTF-8 are 422 naming the field, not
 * replaced by U+FFFD and stored. A request without a body is fine.
 */
async function readBody(c: Context): Promise<string> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return '';
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length === 0) return '';
  if (!JSON_CONTENT_TYPE.test(c.req.header('content-type') ?? '')) throw new ApiError('REQUEST_7015');
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    // Decode leniently only to say which field held the bad bytes.
    const lenient = new TextDecoder().decode(bytes);
    let fields: string[] = [];
    try {
      checkJsonShape(lenient);
      fields = fieldsMatching(JSON.parse(lenient), (text) => text.includes('\uFFFD'));
    } catch {
      // not JSON either: the body as a whole is named
    }
    throw validationError(Object.fromEntries((fields.length ? fields : ['body']).map((f) => [f, notUnicode(f)])));
  }
}

/** Dotted paths of the strings (values or keys) in a JSON value that `bad` flags. */
function fieldsMatching(value: unknown, bad: (text: string) => boolean, path = ''): string[] {
  if (typeof value === 'string') return bad(value) ? [path || 'body'] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const at = path ? `${path}.${k}` : k;
    return bad(k) ? [path || 'body'] : fieldsMatching(v, bad, at);
  });
}

/**
 * Path parameters and query values that are not percent-encoded UTF-8 (`%ED%A0%80` is a lone
 * surrogate, `%zz` no encoding at all). Hono hands such a value over undecoded rather than
 * failing, so it would otherwise reach a handler as literal text.
 */
function badUrlText(c: Context, call: CallDef): Record<string, string> {
  const errors: Record<string, string> = {};
  const url = new URL(c.req.url);
  const decodes = (raw: string) => {
    try {
      decodeURIComponent(raw);
      return true;
    } catch {
      return false;
    }
  };
  const template = call.path.split('/');
  url.pathname.split('/').forEach((raw, i) => {
    const name = template[i]?.startsWith(':') ? template[i].slice(1) : null;
    if (name && !decodes(raw)) errors[name] ??= notUnicode(name);
  });
  for (const pair of url.search.slice(1).split('&')) {
    if (!pair) continue;
    const [rawKey = '', rawValue = ''] = pair.split(/=(.*)/s);
    const name = decodes(rawKey) ? decodeURIComponent(rawKey.replace(/\+/g, ' ')) : 'query';
    if (PROTOTYPE_KEYS.has(name)) throw prototypeKeyRefusal(name);
    if (!decodes(rawKey) || !decodes(rawValue)) errors[name] ??= notUnicode(name);
  }
  return errors;
}

function parseInput<C extends CallDef>(c: Context, call: C, rawBody: string | null, bytes?: Uint8Array): CallParsed<C> {
  const json = bytes ?? (call.body && rawBody !== null ? parseJson(rawBody) : undefined);
  const errors: Record<string, string> = { ...badUrlText(c, call) };
  if (!bytes) for (const field of fieldsMatching(json, (text) => LONE_SURROGATE.test(text))) errors[field] ??= notUnicode(field);
  const parse = (schema: z.ZodType | null, value: unknown) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    // §5 messages keyed by field path ("transaction_ids is required"); the first one wins.
    for (const [path, message] of Object.entries(validationMessages(result.error, value))) errors[path] ??= message;
    return undefined;
  };
  const params = parse(call.params, c.req.param());
  const query = parse(call.query, c.req.query());
  const body = parse(call.body, json);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { params, query, body } as CallParsed<C>;
}

/**
 * The body's JSON under the input contract's limits (json-body.ts): depth, keys and items are
 * checked on the raw text before parsing, prototype keys anywhere after it (400 REQUEST_7017).
 */
function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  return parseJsonBody(raw, () => validationError({ body: 'body must be a valid JSON' }));
}

function send(c: Context, reply: Reply | Response): Response {
  if (reply instanceof Response) return reply;
  return sendText(c, reply.status, replyText(reply), false);
}

function sendText(c: Context, status: number, text: string, replayed: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=UTF-8' };
  if (replayed) headers['idempotent-replayed'] = 'true';
  return c.body(text, status as 200, headers);
}
