import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { CATALOGUE } from '../schema/api/calls.ts';
import { errorBody } from '../schema/errors.ts';
import { loadTokenKey } from './auth/tokens.ts';
import type { Db } from './db/db.ts';
import { ChangeNotifier } from './feed/notifier.ts';
import { FeedPageCache } from './feed/page-cache.ts';
import type { AppDeps } from './core/deps.ts';
import { ApiError, fromDatabaseError } from './core/errors.ts';
import { compressAnswers } from './http/encoding.ts';
import { securityHeaders } from './http/headers.ts';
import { registerCatalogue, uploadTooLarge } from './http/register.ts';
import { workflowRequestScope } from './http/workflow-scope.ts';
import { serveDist } from './http/static.ts';
import { bodyIdleTimeout, resolveTimeouts, type RequestTimeouts } from './http/timeouts.ts';
import { HANDLERS } from './routes/handlers.ts';
import { registerSsoBrowserRoutes } from './routes/sso-browser.ts';
import { registerScimRoutes } from './scim/routes.ts';
import { registerOAuthRoutes } from './auth/api-clients/oauth-routes.ts';
import { registerPlatformRoutes } from './routes/platform.ts';
import { resolveSsoSettings, type SsoOptions } from './auth/sso/settings.ts';
import { resolveQuotas, type QuotaSettings } from './auth/quotas.ts';

export type CreateAppOptions = {
  db: Db;
  /** Overrides TOKEN_SECRET / the shared key in server_keys (tests). */
  tokenSecret?: string;
  now?: () => number;
  heartbeatMs?: number;
  /** Serve the built PWA from this directory (npm start). */
  distDir?: string;
  /** Where unexpected errors are reported (default console.error). */
  logError?: (err: unknown) => void;
  /** The development mailbox (codes and links readable over HTTP on loopback); default off. */
  devOutbox?: boolean;
  /** Single sign-on: public URL, loopback http for IdPs, Google client (server/auth/sso/settings.ts; the environment fills what is left out). */
  sso?: SsoOptions;
  /** Quotas (server/auth/quotas.ts): these override LEDGERLINE_QUOTA_* and the defaults (tests set small ones). */
  quotas?: Partial<QuotaSettings>;
  /** How long a client may take to send a request (server/http/timeouts.ts; LEDGERLINE_*_TIMEOUT_MS fill what is left out). */
  timeouts?: Partial<RequestTimeouts>;
};
export type LedgerlineApp = Hono & { deps: AppDeps; close(): Promise<void> };

/** 10,000 uuids in a bulk call are ~400 KB; anything far beyond that is not ours. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Catalogue paths as regexes, to tell "wrong method" (405) from "no such path" (404). */
const CATALOGUE_PATHS = CATALOGUE.map((call) => ({
  method: call.method,
  re: new RegExp(`^${call.path.replace(/:[a-z_]+/g, '[^/]+')}/?$`),
}));

/** Routes whose body is a file, each with its own size cap. */
const UPLOAD_PATHS = CATALOGUE.flatMap((call) =>
  call.upload ? [{ method: call.method, re: new RegExp(`^${call.path.replace(/:[a-z_]+/g, '[^/]+')}/?$`), spec: call.upload }] : [],
);

export function createApp(opts: CreateAppOptions): LedgerlineApp {
  let key: Promise<Uint8Array> | null = null;
  const notifier = new ChangeNotifier(opts.db);
  const deps: AppDeps = {
    db: opts.db,
    tokenKey: () => {
      key ??= loadTokenKey(opts.db, opts.tokenSecret ?? process.env.TOKEN_SECRET).catch((err: unknown) => {
        key = null;
        throw err;
      });
      return key;
    },
    now: opts.now ?? Date.now,
    notifier,
    feedPages: new FeedPageCache(notifier),
    heartbeatMs: opts.heartbeatMs ?? 15_000,
    devOutbox: opts.devOutbox ?? false,
    sso: resolveSsoSettings(opts.sso),
    quotas: resolveQuotas(opts.quotas),
  };
  // The signing key is read now, before any request: a handler that signs a token inside its own
  // transaction (a surface's sign-in: application verify, firm apply, invite accepts) must not be
  // the first to read it, since on PGlite's one connection that read would wait for the
  // transaction that waits for it. A failed read (no migrated database yet) is retried on first use.
  deps.tokenKey().catch(() => undefined);
  const logError = opts.logError ?? ((err: unknown) => console.error('[ledgerline] unexpected error', err));
  const app = new Hono();

  // First, so every answer gets them: API, app files, the SPA fallback, 404s, errors, SSE.
  app.use('*', securityHeaders());
  // Feed pages and search answers are large JSON; SSE streams and small answers pass untouched.
  app.use('/v1/*', compressAnswers());
  // JSON bodies stop at 2 MB; a file upload (the catalogue's `upload`) at its own cap. Either is
  // refused from Content-Length before reading, or as soon as a streamed body passes it.
  const jsonLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(errorBody('REQUEST_7013'), 413) });
  const uploadLimits = UPLOAD_PATHS.map((u) => ({
    ...u,
    limit: bodyLimit({ maxSize: u.spec.maxBytes, onError: (c) => { const e = uploadTooLarge(u.spec); return c.json(e.body, 413); } }),
  }));
  app.use('/v1/*', (c, next) => {
    const upload = uploadLimits.find((u) => u.method === c.req.method && u.re.test(c.req.path));
    return (upload?.limit ?? jsonLimit)(c, next);
  });
  // A body that stalls answers 408 TIMEOUT instead of holding the connection (slowloris).
  app.use('/v1/*', bodyIdleTimeout(resolveTimeouts(opts.timeouts).bodyIdleMs));
  // The IdPs' redirects and form posts (not JSON calls, so not in CATALOGUE).
  // Workflow runs triggered by a request mail through its mail port (issue 29).
  app.use('/v1/*', workflowRequestScope(deps));
  registerSsoBrowserRoutes(app, deps);
  // Issue 32: protocols with their own formats (SCIM 2.0 at /scim/v2; the OAuth token endpoint).
  registerScimRoutes(app, deps);
  registerOAuthRoutes(app, deps);
  // The maintenance window's write gate (INFRA_7001) and GET /v1/openapi.json.
  registerPlatformRoutes(app, deps);
  registerCatalogue(app, deps, HANDLERS);
  if (opts.distDir) serveDist(app, opts.distDir);

  app.notFound((c) => {
    const path = c.req.path;
    const known = CATALOGUE_PATHS.filter((p) => p.re.test(path));
    if (known.length > 0 && !known.some((p) => p.method === c.req.method)) {
      return c.json(errorBody('REQUEST_7005'), 405);
    }
    return c.json(errorBody('REQUEST_7004'), 404);
  });

  app.onError((err, c) => {
    const api = toApiError(err);
    // A stalled body: the rest of it may still trickle in, so the connection ends with the answer.
    if (api?.code === 'TIMEOUT') c.header('Connection', 'close');
    if (api) return c.json(api.body, api.status as 400);
    logError(err);
    return c.json(errorBody('INTERNAL_7000'), 500);
  });

  return Object.assign(app, {
    deps,
    close: () => {
      deps.feedPages.close();
      return deps.notifier.close();
    },
  });
}

/** Every failure a caller can cause maps to a catalogue code; only our own bugs become 500. */
function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  // A body read that failed because of our own refusal (a stalled body) may arrive wrapped.
  if (err instanceof Error && err.cause instanceof ApiError) return err.cause;
  // The connection ended while the body was read (the whole-request timeout cut a slow client
  // off, or the client went away): nobody is left to answer, and it is not our bug.
  if (err instanceof Error && (err as { code?: unknown }).code === 'ECONNRESET') return new ApiError('TIMEOUT', 'The connection closed before the request arrived.');
  if (err instanceof HTTPException) {
    if (err.status === 413) return new ApiError('REQUEST_7013');
    if (err.status === 401) return new ApiError('AUTH_7002');
    if (err.status < 500) return new ApiError('REQUEST_7001');
  }
  // Malformed percent-encoding in a path or query reaches us as URIError from decodeURIComponent.
  if (err instanceof URIError) return new ApiError('REQUEST_7001', 'The request URL is malformed.');
  return fromDatabaseError(err);
}
