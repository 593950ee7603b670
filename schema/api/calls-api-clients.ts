import { z } from 'zod';
import { API_SCOPES } from './api-scopes.ts';
import { defineCall } from './define-call.ts';

/**
 * Issue 32: customer API clients (OAuth 2.0 client credentials; §7 "customer API clients (DELETE
 * clients/{client}, clients/secrets/{secret})", §6 `sensitive` for client secrets and client
 * deletion). An admin or developer admin (`canManageApiClients`) creates a client with API scopes
 * (api-scopes.ts) and a per-minute rate limit; its secret is shown once. The client trades it for
 * a 1-hour access token at `POST /v1/public/token` (server/auth/api-clients/oauth-routes.ts, outside
 * this catalogue: RFC 6749's form body and errors). `admin.*`: admin-only (tenant isolation reads it).
 */
const full = { scopes: ['default'] } as const;
/** §6: creating a secret (a new client comes with one) and deleting a client need a step-up. */
const sensitive = { scopes: ['sensitive'] } as const;

export const API_SECRET_PREFIX = 'llsk_';
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const MAX_RATE_LIMIT_PER_MINUTE = 10_000;
/** Live secrets a client may hold at once: two lets a rotation overlap old and new. */
export const MAX_LIVE_SECRETS = 2;
/** Access tokens live one hour. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

const apiScopeSchema = z.enum(API_SCOPES);
const isoDate = z.iso.datetime({ offset: true });

export const apiClientSecretSchema = z.object({
  id: z.uuid(),
  /** What identifies the secret on the page: `llsk_…` and its last four characters. */
  hint: z.string(),
  created_at: isoDate,
  revoked_at: isoDate.nullable(),
  last_used_at: isoDate.nullable(),
});
export type ApiClientSecret = z.infer<typeof apiClientSecretSchema>;

export const apiClientSchema = z.object({
  id: z.uuid(),
  /** The OAuth `client_id` (the same as `id`). */
  client_id: z.uuid(),
  name: z.string(),
  scopes: z.array(apiScopeSchema),
  rate_limit_per_minute: z.number().int(),
  expires_at: isoDate.nullable(),
  created_at: isoDate,
  /** The admin it acts as (its rights, narrowed to `scopes`). */
  acts_as: z.object({ id: z.uuid(), name: z.string() }),
  secrets: z.array(apiClientSecretSchema),
  last_used_at: isoDate.nullable(),
});
export type ApiClient = z.infer<typeof apiClientSchema>;

export const apiClientRequestSchema = z.object({
  call_id: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  at: isoDate,
});
export type ApiClientRequest = z.infer<typeof apiClientRequestSchema>;

/** A secret at the one moment it is shown: `client_secret` is never answered again. */
const newSecretSchema = apiClientSecretSchema.extend({ client_secret: z.string() });
const withSecret = z.object({ client: apiClientSchema, secret: newSecretSchema });

const clientParams = z.object({ client_id: z.uuid() });

export const listApiClients = defineCall({
  id: 'admin.apiClients.list',
  method: 'GET',
  path: '/v1/auth/clients',
  auth: full,
  response: z.object({ data: z.array(apiClientSchema) }),
});

export const createApiClient = defineCall({
  id: 'admin.apiClients.create',
  method: 'POST',
  path: '/v1/auth/clients',
  auth: sensitive,
  body: z.object({
    name: z.string().trim().min(1).max(80),
    scopes: z.array(apiScopeSchema).min(1).max(API_SCOPES.length),
    rate_limit_per_minute: z.number().int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE).default(DEFAULT_RATE_LIMIT_PER_MINUTE),
    /** When the client stops working (its tokens too); null or absent: never. */
    expires_at: isoDate.nullable().optional(),
  }),
  response: withSecret,
});

export const getApiClient = defineCall({
  id: 'admin.apiClients.get',
  method: 'GET',
  path: '/v1/auth/clients/:client_id',
  auth: full,
  params: clientParams,
  response: z.object({
    client: apiClientSchema,
    /** The last 50 calls its tokens made, newest first. */
    recent_requests: z.array(apiClientRequestSchema),
    /** The last 24 hours: every call, those refused (4xx/5xx), those rate limited (429). */
    usage: z.object({ requests_24h: z.number().int(), errors_24h: z.number().int(), throttled_24h: z.number().int() }),
  }),
});

/** A new secret; `revoke_existing` rotates (every other live secret is revoked in the same step). */
export const createApiClientSecret = defineCall({
  id: 'admin.apiClients.secrets.create',
  method: 'POST',
  path: '/v1/auth/clients/:client_id/secrets',
  auth: sensitive,
  params: clientParams,
  body: z.object({ revoke_existing: z.boolean().default(false) }),
  response: withSecret,
});

/** Revokes one secret: tokens issued with it stop at once. */
export const deleteApiClientSecret = defineCall({
  id: 'admin.apiClients.secrets.delete',
  method: 'DELETE',
  path: '/v1/auth/clients/secrets/:secret_id',
  auth: sensitive,
  params: z.object({ secret_id: z.uuid() }),
  response: z.object({ client: apiClientSchema }),
});

/** Deletes the client: every secret and token stops at once; its request log is kept. */
export const deleteApiClient = defineCall({
  id: 'admin.apiClients.delete',
  method: 'DELETE',
  path: '/v1/auth/clients/:client_id',
  auth: sensitive,
  params: clientParams,
  response: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});

export const API_CLIENT_CALLS = [
  listApiClients, createApiClient, getApiClient, createApiClientSecret, deleteApiClientSecret, deleteApiClient,
] as const;
