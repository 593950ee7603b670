import type { CallDef, CallInput, CallResponse } from '../schema/api/define-call.ts';
import { buildPath } from '../schema/api/define-call.ts';
import { checkScopes, ID_TOKEN_HEADER, IDEMPOTENCY_HEADER, type StepUpScope } from '../schema/api/scopes.ts';
import { errorBody, errorV2Schema, DEFAULT_ERROR_MESSAGE, type ErrorV2 } from '../schema/errors.ts';
import { stripEmpty } from '../schema/paging.ts';
import { DEVICE_HEADER, formatEtag, IF_MATCH_HEADER } from '../schema/conflicts.ts';
import {
  REQUEST_TIMEOUT_DEFAULT_MS,
  REQUEST_TIMEOUT_MOBILE_MS,
  REQUEST_TIMEOUT_WEB_MS,
} from '../schema/constants.ts';
import type { Clock, SessionPort, Transport } from './ports.ts';
import { decodeTokenClaims } from './token.ts';

export type ApiError = ErrorV2['error_v2'];
export type Platform = 'web' | 'mobile' | 'other';
export const PLATFORM_HEADER = 'X-Ramp-Platform';

/**
 * Every way a call can fail, as data. `maybeSent` tells whether the request may have reached
 * the server (the outbox then re-sends with the same Idempotency-Key); `step_up`, `forbidden`
 * and `unauthenticated` are decided locally, before any request.
 */
export type HttpFailure =
  | { ok: false; kind: 'http'; status: number; error: ApiError; retryAfter: string | null }
  | { ok: false; kind: 'network' | 'timeout' | 'aborted'; maybeSent: boolean; error: ApiError }
  | { ok: false; kind: 'step_up'; scope: StepUpScope; error: ApiError }
  | { ok: false; kind: 'forbidden'; error: ApiError }
  | { ok: false; kind: 'unauthenticated'; error: ApiError }
  /** A 2xx whose body did not match the catalogue: the server did act, but we cannot read it. */
  | { ok: false; kind: 'bad_response'; status: number; error: ApiError };
export type HttpResult<T> = { ok: true; status: number; data: T } | HttpFailure;

export type CallOptions<C extends CallDef> = Partial<CallInput<C>> & {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * An upload call's body (the catalogue's `upload` spec): the file's bytes, sent as they are
   * with their Content-Type (a Blob goes out without being copied into memory first).
   */
  file?: { body: Blob | Uint8Array; contentType: string };
  /**
   * Issue 24: the row version the edit was made against (its `change_seq`), sent as
   * `If-Match: "<seq>"`; the server answers 409 CONFLICT for a field changed since by someone else.
   */
  ifMatch?: number;
  /** Issue 31: a call's own headers (the financing application's `X-RAMP-FINANCING-APPLICATION-ID`). */
  headers?: Record<string, string>;
};

export { DEVICE_HEADER, IF_MATCH_HEADER };

export interface HttpClient {
  call<C extends CallDef>(def: C, opts?: CallOptions<C>): Promise<HttpResult<CallResponse<C>>>;
  /** Opens a streaming response (SSE); the body stays open until the signal aborts. */
  stream<C extends CallDef>(def: C, opts?: CallOptions<C>): Promise<HttpResult<ReadableStream<Uint8Array>>>;
  /**
   * A call whose answer is a file (e.g. a receipt's bytes): the body read whole as a Blob typed
   * with the response's Content-Type, not parsed against the catalogue's response schema. The
   * same token, scope gate, timeout and failures as `call`.
   */
  blob<C extends CallDef>(def: C, opts?: CallOptions<C>): Promise<HttpResult<Blob>>;
}

export interface HttpClientOptions {
  baseUrl: string;
  transport: Transport;
  clock: Clock;
  session: SessionPort;
  /** §9: 10 s by default, none on web, 15 s on mobile. `null` means no timeout. */
  timeoutMs?: number | null;
  platform?: Platform;
  /** Key for POST/PATCH calls sent without one (tests inject a deterministic one). */
  newKey?: () => string;
  /** This device's id (issue 24), sent as X-Ledgerline-Device on writes (POST/PUT/PATCH/DELETE). */
  device?: () => string | null | undefined;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NO_TOKEN = errorBody('AUTH_7002').error_v2;
const TIMEOUT_ERROR = errorBody('TIMEOUT').error_v2;
const SCOPE_ERROR = errorBody('AUTH_7016').error_v2;
const DEFAULT_ERROR: ApiError = { message: DEFAULT_ERROR_MESSAGE, error_code: 'UNKNOWN' };

export function defaultTimeout(platform: Platform): number | null {
  if (platform === 'web') return REQUEST_TIMEOUT_WEB_MS;
  if (platform === 'mobile') return REQUEST_TIMEOUT_MOBILE_MS;
  return REQUEST_TIMEOUT_DEFAULT_MS;
}

export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const platform = opts.platform ?? 'web';
  const timeoutMs = opts.timeoutMs === undefined ? defaultTimeout(platform) : opts.timeoutMs;
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  const base = opts.baseUrl.replace(/\/+$/, '');
  // Called unbound: browsers throw "Illegal invocation" when fetch runs with `this` = opts.
  const transport = opts.transport;

  /** Builds the request, or the local failure that stops it from being sent. */
  function prepare<C extends CallDef>(def: C, o: CallOptions<C>): { url: string; init: RequestInit } | HttpFailure {
    const headers: Record<string, string> = { Accept: 'application/json', [PLATFORM_HEADER]: platform };
    if (def.auth.kind !== 'public') {
      const token = opts.session.tokenFor ? opts.session.tokenFor(def.auth) : opts.session.getToken();
      if (!token) return { ok: false, kind: 'unauthenticated', error: NO_TOKEN };
      const claims = decodeTokenClaims(token);
      const age = claims?.iat === undefined ? undefined : opts.clock.now() / 1000 - claims.iat;
      const gate = checkScopes(def.auth, claims?.ramp_access_scopes ?? [], age);
      if (!gate.ok) {
        return gate.reason === 'step-up'
          ? { ok: false, kind: 'step_up', scope: gate.scope, error: SCOPE_ERROR }
          : { ok: false, kind: 'forbidden', error: SCOPE_ERROR };
      }
      headers[ID_TOKEN_HEADER] = token;
    }
    if (def.idempotent) headers[IDEMPOTENCY_HEADER] = o.idempotencyKey ?? newKey();
    if (o.ifMatch !== undefined) headers[IF_MATCH_HEADER] = formatEtag(o.ifMatch);
    if (o.headers) Object.assign(headers, o.headers);
    // Issue 24: the device's id on every write, so the server tells this device's own changes from others'.
    const device = BODY_METHODS.has(def.method) ? opts.device?.() : null;
    if (device) headers[DEVICE_HEADER] = device;
    const init: RequestInit = { method: def.method, headers };
    if (def.upload) {
      const file = o.file ?? (o.body instanceof Uint8Array ? { body: o.body, contentType: 'application/octet-stream' } : null);
      if (file) {
        headers['Content-Type'] = file.contentType;
        init.body = file.body as BodyInit;
      }
    } else if (BODY_METHODS.has(def.method) && o.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(o.body);
    }
    const path = buildPath(def.path, o.params as Record<string, string> | undefined);
    const query = o.query ? new URLSearchParams(stripEmpty(o.query as Record<string, unknown>)).toString() : '';
    return { url: base + path + (query ? `?${query}` : ''), init };
  }

  /**
   * Sends with the timeout and the caller's signal joined into one abort. `readBody` false keeps
   * the body open for streaming: then the timeout covers only the wait for response headers.
   */
  async function send(url: string, init: RequestInit, signal: AbortSignal | undefined, readBody: boolean | 'blob') {
    if (signal?.aborted) return { ok: false, kind: 'aborted', maybeSent: false, error: DEFAULT_ERROR } as const;
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = new AbortController();
    let timedOut = false;
    if (timeoutMs !== null) {
      opts.clock.sleep(timeoutMs, timer.signal).then(
        () => {
          timedOut = true;
          ctrl.abort(new DOMException('timeout', 'TimeoutError'));
        },
        () => undefined,
      );
    }
    try {
      const response = await transport(url, { ...init, signal: ctrl.signal });
      // A file is read whole only when the answer is a success (an error's body is JSON text).
      const blob = readBody === 'blob' && response.ok ? await response.blob() : null;
      const text = readBody && !blob ? await response.text() : '';
      return { ok: true, response, text, blob } as const;
    } catch {
      // Once fetch was called we cannot know whether the server saw the request.
      if (timedOut) return { ok: false, kind: 'timeout', maybeSent: true, error: TIMEOUT_ERROR } as const;
      if (signal?.aborted) return { ok: false, kind: 'aborted', maybeSent: true, error: DEFAULT_ERROR } as const;
      return { ok: false, kind: 'network', maybeSent: true, error: DEFAULT_ERROR } as const;
    } finally {
      timer.abort();
      if (readBody) signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    async call(def, o = {}) {
      const req = prepare(def, o);
      if ('ok' in req) return req;
      const sent = await send(req.url, req.init, o.signal, true);
      if (!sent.ok) return sent;
      if (!sent.response.ok) return httpFailure(sent.response, sent.text);
      return parseSuccess(def, sent.response.status, sent.text);
    },
    async stream(def, o = {}) {
      const req = prepare(def, o);
      if ('ok' in req) return req;
      (req.init.headers as Record<string, string>).Accept = 'text/event-stream';
      const sent = await send(req.url, req.init, o.signal, false);
      if (!sent.ok) return sent;
      if (!sent.response.ok) return httpFailure(sent.response, await sent.response.text().catch(() => ''));
      const body = sent.response.body;
      if (!body) return { ok: false, kind: 'bad_response', status: sent.response.status, error: DEFAULT_ERROR };
      return { ok: true, status: sent.response.status, data: body };
    },
    async blob(def, o = {}) {
      const req = prepare(def, o);
      if ('ok' in req) return req;
      (req.init.headers as Record<string, string>).Accept = '*/*';
      const sent = await send(req.url, req.init, o.signal, 'blob');
      if (!sent.ok) return sent;
      if (!sent.response.ok || !sent.blob) return httpFailure(sent.response, sent.text);
      return { ok: true, status: sent.response.status, data: sent.blob };
    },
  };
}

function parseSuccess<C extends CallDef>(def: C, status: number, text: string): HttpResult<CallResponse<C>> {
  let json: unknown;
  try {
    // 204 No Content is the answer of calls declared `z.null()` (passwordless send, telemetry).
    json = text === '' ? (status === 204 ? null : undefined) : JSON.parse(text);
  } catch {
    return { ok: false, kind: 'bad_response', status, error: DEFAULT_ERROR };
  }
  const parsed = def.response.safeParse(json);
  if (!parsed.success) return { ok: false, kind: 'bad_response', status, error: DEFAULT_ERROR };
  return { ok: true, status, data: parsed.data as CallResponse<C> };
}

/** A non-2xx answer: the server's error_v2 when it sent one, else the default message. */
function httpFailure(response: Response, text: string): HttpFailure {
  return {
    ok: false,
    kind: 'http',
    status: response.status,
    error: parseErrorBody(text),
    retryAfter: response.headers.get('Retry-After'),
  };
}

export function parseErrorBody(text: string): ApiError {
  try {
    const parsed = errorV2Schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error_v2 : DEFAULT_ERROR;
  } catch {
    return DEFAULT_ERROR;
  }
}
