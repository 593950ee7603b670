import { z } from 'zod';
import type { CallAuth, Scope, Surface } from './scopes.ts';
import { RECENT_TOKEN_MAX_AGE_SECONDS } from './scopes.ts';

const BUSINESS_ONLY: readonly Surface[] = ['BUSINESS'];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Retry classes (§7): `standard` follows the method rule (GET/PUT/HEAD/DELETE/OPTIONS/TRACE
 * retried up to 2 times on 408/413/429/5xx; POST and PATCH never blindly), `paged` is a paged
 * query (no retry on any 4xx, up to 5 otherwise), `stream` is a long-lived SSE read.
 */
export type RetryClass = 'standard' | 'paged' | 'stream';

type Schema = z.ZodType;

/**
 * A call whose body is a file, not JSON (receipts). The one deliberate exception to the input
 * contract: register reads the raw bytes (at most `maxBytes`, refused from Content-Length before
 * reading when it is declared) of one of `contentTypes` (parameters ignored) and hands them to the
 * handler as `input.body`; any other type is 415 UPLOAD_7101, an empty body 422 UPLOAD_7104, a
 * larger one 413 UPLOAD_7103. Checking the bytes really are that type is the handler's job.
 */
export type UploadSpec = { contentTypes: readonly string[]; maxBytes: number };
/** The body schema of an upload call: the raw bytes. */
export const uploadBodySchema = z.instanceof(Uint8Array);

export interface CallDef<
  P extends Schema | null = Schema | null,
  Q extends Schema | null = Schema | null,
  B extends Schema | null = Schema | null,
  R extends Schema = Schema,
  Id extends string = string,
> {
  /** Literal per entry, so the server's handler map is keyed by the catalogue's own ids. */
  id: Id;
  method: HttpMethod;
  /** Hono-style path with `:name` params, e.g. /v1/auth/transactions/:transaction_canonical_uuid */
  path: string;
  auth: CallAuth;
  /**
   * The surfaces whose tokens may make this call (issue 31; default the main app only). A token
   * of another surface is refused before anything else (403 SURFACE_7001): no handler checks it.
   */
  surfaces: readonly Surface[];
  retry: RetryClass;
  /** POST and PATCH carry an Idempotency-Key; a repeat replays the stored answer. */
  idempotent: boolean;
  /**
   * A POST that only reads (its body is a query, e.g. a CSV export answered as a stream): not
   * idempotent-keyed, since there is nothing to do twice and a streamed file cannot be stored
   * for a replay; the server runs it outside a transaction.
   */
  readOnly: boolean;
  params: P;
  query: Q;
  body: B;
  /** Set on file uploads only (see UploadSpec); `body` is then `uploadBodySchema`. */
  upload: UploadSpec | null;
  response: R;
}

export function defineCall<
  R extends Schema,
  P extends Schema | null = null,
  Q extends Schema | null = null,
  B extends Schema | null = null,
  Id extends string = string,
>(def: {
  id: Id;
  method: HttpMethod;
  path: string;
  /** `orRecentToken`: a token issued within the §6 recent-token window passes without the scopes. */
  auth: { scopes: readonly Scope[]; orRecentToken?: true } | 'recent-token' | 'public';
  /** Default `['BUSINESS']`; `ANY_SURFACE` for the calls every signed-in token makes. */
  surfaces?: readonly Surface[];
  retry?: RetryClass;
  params?: P;
  query?: Q;
  body?: B;
  /** A file upload: `body` must be `uploadBodySchema`. */
  upload?: UploadSpec;
  /** A POST that only reads (see CallDef.readOnly). */
  readOnly?: true;
  response: R;
}): CallDef<P, Q, B, R, Id> {
  if ((def.upload !== undefined) !== ((def.body as unknown) === uploadBodySchema)) {
    throw new Error(`${def.id}: an upload call takes body uploadBodySchema, and only an upload call does`);
  }
  const auth: CallAuth =
    def.auth === 'public'
      ? { kind: 'public' }
      : def.auth === 'recent-token'
        ? { kind: 'recent-token', maxAgeSeconds: RECENT_TOKEN_MAX_AGE_SECONDS }
        : {
            kind: 'scopes',
            scopes: def.auth.scopes,
            ...(def.auth.orRecentToken && { recentTokenMaxAgeSeconds: RECENT_TOKEN_MAX_AGE_SECONDS }),
          };
  return {
    id: def.id,
    method: def.method,
    path: def.path,
    auth,
    surfaces: def.surfaces ?? BUSINESS_ONLY,
    retry: def.retry ?? 'standard',
    idempotent: (def.method === 'POST' || def.method === 'PATCH') && !def.readOnly,
    readOnly: def.readOnly === true,
    params: (def.params ?? null) as P,
    query: (def.query ?? null) as Q,
    // A body that names a field we do not know is refused (422 '{path} is not allowed'), not
    // half-applied: a typo or a field from a newer client must never be silently dropped.
    body: (def.upload ? def.body : def.body ? strictDeep(def.body) : null) as B,
    upload: def.upload ?? null,
    response: def.response,
  };
}

type Def = z.core.$ZodTypeDef & Record<string, unknown>;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/**
 * The same schema with every object in it strict (unknown keys are an issue, not stripped).
 * Objects that chose their own policy (a catchall, passthrough) keep it; intersections are left
 * loose because each side would refuse the other's keys.
 */
export function strictDeep<S extends z.ZodType>(schema: S): S {
  const def = schema._zod.def as Def;
  const remake = (patch: Record<string, unknown>) => schema.clone(z.core.util.mergeDefs(def, patch)) as S;
  if (def.type === 'object') {
    const shape = Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, strictDeep(v)]));
    return remake({ shape, ...(def.catchall === undefined && { catchall: z.never() }) });
  }
  if (WRAPPERS.has(def.type)) return remake({ innerType: strictDeep(def.innerType as z.ZodType) });
  switch (def.type) {
    case 'array': return remake({ element: strictDeep(def.element as z.ZodType) });
    case 'record': return remake({ valueType: strictDeep(def.valueType as z.ZodType) });
    case 'union': return remake({ options: (def.options as z.ZodType[]).map(strictDeep) });
    case 'pipe': return remake({ in: strictDeep(def.in as z.ZodType), out: strictDeep(def.out as z.ZodType) });
    default: return schema;
  }
}

type In<S> = S extends Schema ? z.input<S> : undefined;
type Out<S> = S extends Schema ? z.output<S> : undefined;
/** What a client sends (inputs) and what the server receives after parsing (outputs). */
export type CallInput<C extends CallDef> = { params: In<C['params']>; query: In<C['query']>; body: In<C['body']> };
export type CallParsed<C extends CallDef> = { params: Out<C['params']>; query: Out<C['query']>; body: Out<C['body']> };
export type CallResponse<C extends CallDef> = z.output<C['response']>;

/** Fills `:name` placeholders from params (§7: placeholders come from the payload). */
export function buildPath(path: string, params: Record<string, string> | null | undefined): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(v);
  });
}
