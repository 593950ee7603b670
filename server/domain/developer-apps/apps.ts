import { randomUUID } from 'node:crypto';
import { isApiScope, type ApiScope } from '../../../schema/api/api-scopes.ts';
import type { DeveloperApp } from '../../../schema/api/calls-developer-apps.ts';
import { insertSecret, secretDoc, secretsOf, type NewSecret } from '../../auth/api-clients/store.ts';
import { revokeGrants } from '../../auth/developer-apps/live-grant.ts';
import { ApiError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 32: a business's registered developer applications. An app is an `api_clients` row of
 * kind `developer_app` (secrets, rotation, rate limit and request log are the API clients'),
 * with its page fields and exact redirect URIs in `developer_apps` / `developer_app_redirect_uris`.
 */
const iso = (d: Date | string) => new Date(d).toISOString();
const notFound = () => new ApiError('REQUEST_7004', 'This application was not found.');

type AppRow = {
  id: string; name: string; description: string; homepage_url: string | null; logo_url: string | null;
  client_type: 'confidential' | 'public'; scopes: string[]; redirect_uris: string[]; connected: number; created_at: Date;
};

export async function appDocs(db: Queryable, businessId: string, appId?: string): Promise<DeveloperApp[]> {
  const apps = await db.query<AppRow>(
    `SELECT c.id, c.name, d.description, d.homepage_url, d.logo_url, d.client_type, c.scopes, c.created_at,
            ARRAY(SELECT uri FROM developer_app_redirect_uris r WHERE r.app_id = c.id ORDER BY uri) AS redirect_uris,
            (SELECT count(DISTINCT g.business_id)::int FROM oauth_grants g WHERE g.app_id = c.id AND g.revoked_at IS NULL) AS connected
       FROM api_clients c JOIN developer_apps d ON d.id = c.id
      WHERE c.business_id = $1 AND c.kind = 'developer_app' AND c.deleted_at IS NULL AND ($2::uuid IS NULL OR c.id = $2)
      ORDER BY c.created_at DESC, c.id`,
    [businessId, appId ?? null],
  );
  if (apps.length === 0) return [];
  const secrets = await secretsOf(db, apps.map((a) => a.id));
  return apps.map((a) => ({
    id: a.id, client_id: a.id, name: a.name, description: a.description, homepage_url: a.homepage_url, logo_url: a.logo_url,
    client_type: a.client_type, redirect_uris: a.redirect_uris, scopes: a.scopes.filter(isApiScope),
    secrets: secrets.filter((s) => s.client_id === a.id).map(secretDoc), connected_businesses: a.connected, created_at: iso(a.created_at),
  }));
}

export async function appDoc(db: Queryable, businessId: string, appId: string): Promise<DeveloperApp> {
  const [doc] = await appDocs(db, businessId, appId);
  if (!doc) throw notFound();
  return doc;
}

type AppFields = {
  name: string; description: string; homepage_url: string | null; logo_url: string | null;
  redirect_uris: string[]; scopes: ApiScope[]; client_type: 'confidential' | 'public';
};

/** Registers the app; a confidential one gets its first secret (shown once). */
export async function createApp(tx: Queryable, businessId: string, userId: string, body: AppFields, nowMs: number): Promise<{ appId: string; secret: NewSecret | null }> {
  const appId = randomUUID();
  await tx.query(
    `INSERT INTO api_clients (id, business_id, name, scopes, rate_limit_per_minute, created_by, created_at, kind)
     VALUES ($1, $2, $3, $4, 600, $5, $6, 'developer_app')`,
    [appId, businessId, body.name, [...new Set(body.scopes)], userId, new Date(nowMs)],
  );
  await tx.query(
    'INSERT INTO developer_apps (id, description, homepage_url, logo_url, client_type) VALUES ($1, $2, $3, $4, $5)',
    [appId, body.description, body.homepage_url, body.logo_url, body.client_type],
  );
  await setRedirectUris(tx, appId, body.redirect_uris);
  const secret = body.client_type === 'confidential' ? await insertSecret(tx, businessId, appId, userId, nowMs) : null;
  return { appId, secret };
}

async function setRedirectUris(tx: Queryable, appId: string, uris: string[]): Promise<void> {
  await tx.query('DELETE FROM developer_app_redirect_uris WHERE app_id = $1', [appId]);
  await tx.query('INSERT INTO developer_app_redirect_uris (app_id, uri) SELECT $1, u FROM unnest($2::text[]) u', [appId, [...new Set(uris)]]);
}

/** The business's live app, locked (404 for another business's, an unknown or a deleted one). */
async function lockApp(tx: Queryable, businessId: string, appId: string): Promise<{ client_type: 'confidential' | 'public' }> {
  const [row] = await tx.query<{ client_type: 'confidential' | 'public' }>(
    `SELECT d.client_type FROM api_clients c JOIN developer_apps d ON d.id = c.id
      WHERE c.id = $1 AND c.business_id = $2 AND c.kind = 'developer_app' AND c.deleted_at IS NULL FOR UPDATE OF c`,
    [appId, businessId],
  );
  if (!row) throw notFound();
  return row;
}

export async function updateApp(tx: Queryable, businessId: string, appId: string, body: Partial<Omit<AppFields, 'client_type'>>): Promise<void> {
  await lockApp(tx, businessId, appId);
  if (body.name !== undefined || body.scopes !== undefined) {
    await tx.query('UPDATE api_clients SET name = coalesce($2, name), scopes = coalesce($3, scopes) WHERE id = $1', [
      appId, body.name ?? null, body.scopes ? [...new Set(body.scopes)] : null,
    ]);
  }
  await tx.query(
    `UPDATE developer_apps SET description = CASE WHEN $2 THEN $3 ELSE description END,
            homepage_url = CASE WHEN $4 THEN $5 ELSE homepage_url END, logo_url = CASE WHEN $6 THEN $7 ELSE logo_url END
      WHERE id = $1`,
    [appId, body.description !== undefined, body.description ?? null, body.homepage_url !== undefined, body.homepage_url ?? null,
      body.logo_url !== undefined, body.logo_url ?? null],
  );
  if (body.redirect_uris) await setRedirectUris(tx, appId, body.redirect_uris);
}

/** A confidential app's new secret; every other live one is revoked in the same step. */
export async function rotateAppSecret(tx: Queryable, businessId: string, appId: string, userId: string, nowMs: number): Promise<NewSecret> {
  const app = await lockApp(tx, businessId, appId);
  if (app.client_type !== 'confidential') throw new ApiError('REQUEST_7001', 'A public application has no secret: it uses PKCE alone.');
  await tx.query('UPDATE api_client_secrets SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL', [appId, new Date(nowMs)]);
  return insertSecret(tx, businessId, appId, userId, nowMs);
}

/** Deletes the app: its secrets and every business's grant stop at once. */
export async function deleteApp(tx: Queryable, businessId: string, appId: string, nowMs: number): Promise<void> {
  await lockApp(tx, businessId, appId);
  const at = new Date(nowMs);
  await tx.query('UPDATE api_clients SET deleted_at = $2 WHERE id = $1', [appId, at]);
  await tx.query('UPDATE api_client_secrets SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL', [appId, at]);
  await revokeGrants(tx, { appId }, nowMs);
}
