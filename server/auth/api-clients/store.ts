import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_SECRET_PREFIX, MAX_LIVE_SECRETS, type ApiClient, type ApiClientRequest, type ApiClientSecret,
} from '../../../schema/api/calls-api-clients.ts';
import { isApiScope, type ApiScope } from '../../../schema/api/api-scopes.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Customer API clients (issue 32): their rows, secrets and request log. A secret is 32 random
 * bytes shown once as `llsk_<base64url>`; only its sha256 is kept (a secret of that entropy needs
 * no slow hash, and a lookup by hash stays one index probe).
 */
export const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = () => `${API_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
const hintOf = (lastFour: string) => `${API_SECRET_PREFIX}…${lastFour}`;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const notFound = () => new ApiError('REQUEST_7004', 'This API client was not found.');

type ClientRow = {
  id: string; name: string; scopes: string[]; rate_limit_per_minute: number; expires_at: Date | null; created_at: Date;
  created_by: string; creator_name: string;
};
export type SecretRow = { id: string; client_id: string; last_four: string; created_at: Date; revoked_at: Date | null; last_used_at: Date | null };

export const secretDoc = (s: SecretRow): ApiClientSecret => ({
  id: s.id, hint: hintOf(s.last_four), created_at: iso(s.created_at)!, revoked_at: iso(s.revoked_at), last_used_at: iso(s.last_used_at),
});

/** The business's live clients (or the one `clientId`), newest first, as the admin page shows them. */
/** The secrets of these clients (API clients and developer applications), newest first. */
export function secretsOf(db: Queryable, clientIds: string[]): Promise<SecretRow[]> {
  return db.query<SecretRow>(
    `SELECT id, client_id, last_four, created_at, revoked_at, last_used_at FROM api_client_secrets
      WHERE client_id = ANY($1::uuid[]) ORDER BY created_at DESC, id`,
    [clientIds],
  );
}

export async function clientDocs(db: Queryable, businessId: string, clientId?: string): Promise<ApiClient[]> {
  const clients = await db.query<ClientRow>(
    `SELECT c.id, c.name, c.scopes, c.rate_limit_per_minute, c.expires_at, c.created_at, c.created_by,
            trim(u.first_name || ' ' || u.last_name) AS creator_name
       FROM api_clients c JOIN spend_users u ON u.id = c.created_by
      WHERE c.business_id = $1 AND c.deleted_at IS NULL AND c.kind = 'client' AND ($2::uuid IS NULL OR c.id = $2)
      ORDER BY c.created_at DESC, c.id`,
    [businessId, clientId ?? null],
  );
  if (clients.length === 0) return [];
  const secrets = await secretsOf(db, clients.map((c) => c.id));
  return clients.map((c) => {
    const own = secrets.filter((s) => s.client_id === c.id);
    const used = own.map((s) => s.last_used_at).filter((d): d is Date => d !== null).map((d) => new Date(d).getTime());
    return {
      id: c.id, client_id: c.id, name: c.name, scopes: c.scopes.filter(isApiScope),
      rate_limit_per_minute: c.rate_limit_per_minute, expires_at: iso(c.expires_at), created_at: iso(c.created_at)!,
      acts_as: { id: c.created_by, name: c.creator_name }, secrets: own.map(secretDoc),
      last_used_at: used.length ? new Date(Math.max(...used)).toISOString() : null,
    };
  });
}

export async function clientDoc(db: Queryable, businessId: string, clientId: string): Promise<ApiClient> {
  const [doc] = await clientDocs(db, businessId, clientId);
  if (!doc) throw notFound();
  return doc;
}

export type NewClient = { name: string; scopes: ApiScope[]; rate_limit_per_minute: number; expires_at?: string | null | undefined };
export type NewSecret = ApiClientSecret & { client_secret: string };

/** Creates the client, acting as `userId`, with its first secret. */
export async function createClient(tx: Queryable, businessId: string, userId: string, body: NewClient, nowMs: number): Promise<{ clientId: string; secret: NewSecret }> {
  if (body.expires_at && new Date(body.expires_at).getTime() <= nowMs) {
    throw validationError({ expires_at: 'expires_at must be in the future' });
  }
  const clientId = randomUUID();
  await tx.query(
    `INSERT INTO api_clients (id, business_id, name, scopes, rate_limit_per_minute, expires_at, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [clientId, businessId, body.name, [...new Set(body.scopes)], body.rate_limit_per_minute, body.expires_at ?? null, userId, new Date(nowMs)],
  );
  return { clientId, secret: await insertSecret(tx, businessId, clientId, userId, nowMs) };
}

/** A new secret of the client (or developer application) `clientId`, answered once. */
export async function insertSecret(tx: Queryable, businessId: string, clientId: string, userId: string, nowMs: number): Promise<NewSecret> {
  const secret = newSecret();
  const id = randomUUID();
  const at = new Date(nowMs);
  await tx.query(
    `INSERT INTO api_client_secrets (id, client_id, business_id, secret_hash, last_four, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, clientId, businessId, hashSecret(secret), secret.slice(-4), userId, at],
  );
  return { id, hint: hintOf(secret.slice(-4)), created_at: at.toISOString(), revoked_at: null, last_used_at: null, client_secret: secret };
}

/** Locks the business's live client (404 otherwise), so rotations and deletes of one client take turns. */
async function lockClient(tx: Queryable, businessId: string, clientId: string): Promise<void> {
  const rows = await tx.query("SELECT id FROM api_clients WHERE id = $1 AND business_id = $2 AND deleted_at IS NULL AND kind = 'client' FOR UPDATE", [clientId, businessId]);
  if (rows.length === 0) throw notFound();
}

/**
 * A new secret; `revokeExisting` rotates: every other live secret is revoked in the same
 * transaction (under the client's row lock, so two rotations at once leave exactly one live).
 */
export async function addSecret(tx: Queryable, businessId: string, clientId: string, userId: string, revokeExisting: boolean, nowMs: number): Promise<NewSecret> {
  await lockClient(tx, businessId, clientId);
  if (revokeExisting) {
    await tx.query('UPDATE api_client_secrets SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL', [clientId, new Date(nowMs)]);
  }
  const [live] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM api_client_secrets WHERE client_id = $1 AND revoked_at IS NULL', [clientId]);
  if ((live?.n ?? 0) >= MAX_LIVE_SECRETS) {
    throw validationError({ revoke_existing: `A client holds at most ${MAX_LIVE_SECRETS} live secrets: revoke one, or rotate with revoke_existing` });
  }
  return insertSecret(tx, businessId, clientId, userId, nowMs);
}

/** Revokes a live secret of the business (404 for another business's, an unknown or an already revoked one); answers its client. */
export async function revokeSecret(tx: Queryable, businessId: string, secretId: string, nowMs: number): Promise<string> {
  const [owner] = await tx.query<{ client_id: string }>(
    'SELECT client_id FROM api_client_secrets WHERE id = $1 AND business_id = $2', [secretId, businessId],
  );
  if (!owner) throw new ApiError('REQUEST_7004', 'This secret was not found.');
  await lockClient(tx, businessId, owner.client_id);
  const done = await tx.query('UPDATE api_client_secrets SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id', [secretId, new Date(nowMs)]);
  if (done.length === 0) throw new ApiError('REQUEST_7004', 'This secret was already revoked.');
  return owner.client_id;
}

/** Deletes the client and revokes its secrets; its request log stays. */
export async function deleteClient(tx: Queryable, businessId: string, clientId: string, nowMs: number): Promise<void> {
  await lockClient(tx, businessId, clientId);
  const at = new Date(nowMs);
  await tx.query('UPDATE api_clients SET deleted_at = $2 WHERE id = $1', [clientId, at]);
  await tx.query('UPDATE api_client_secrets SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL', [clientId, at]);
}

/** The client's last 50 calls and its last day's counts. */
export async function clientUsage(db: Queryable, clientId: string, nowMs: number) {
  const recent = await db.query<Omit<ApiClientRequest, 'at'> & { at: Date }>(
    `SELECT call_id, method, path, status, duration_ms, at FROM api_client_requests
      WHERE client_id = $1 ORDER BY at DESC, id DESC LIMIT 50`,
    [clientId],
  );
  const [day] = await db.query<{ total: number; errors: number; throttled: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE status >= 400)::int AS errors, count(*) FILTER (WHERE status = 429)::int AS throttled
       FROM api_client_requests WHERE client_id = $1 AND at > $2`,
    [clientId, new Date(nowMs - 24 * 60 * 60 * 1000)],
  );
  return {
    recent_requests: recent.map((r) => ({ ...r, at: iso(r.at)! })),
    usage: { requests_24h: day?.total ?? 0, errors_24h: day?.errors ?? 0, throttled_24h: day?.throttled ?? 0 },
  };
}
