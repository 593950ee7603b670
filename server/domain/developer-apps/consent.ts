import { randomBytes } from 'node:crypto';
import { isApiScope } from '../../../schema/api/api-scopes.ts';
import { AUTHORIZATION_CODE_TTL_SECONDS, type OAuthGrant } from '../../../schema/api/calls-developer-apps.ts';
import { hashSecret } from '../../auth/api-clients/store.ts';
import { revokeGrants } from '../../auth/developer-apps/live-grant.ts';
import { ApiError, validationError } from '../../core/errors.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Issue 32: the consent page's reads and its Allow (a one-time code, RFC 6749 §4.1.2), and a
 * business's Connected apps (its grants). Any business's admin may connect any live app: that is
 * what a developer application is; the grant, the code and the tokens are that business's alone.
 */
type InfoRow = {
  client_id: string; name: string; description: string; homepage_url: string | null; logo_url: string | null; publisher: string;
  scopes: string[]; registered: boolean;
};

const INFO_SQL = `
  SELECT c.id AS client_id, c.name, d.description, d.homepage_url, d.logo_url, b.name AS publisher, c.scopes,
         EXISTS (SELECT 1 FROM developer_app_redirect_uris r WHERE r.app_id = c.id AND r.uri = $2) AS registered
    FROM api_clients c JOIN developer_apps d ON d.id = c.id JOIN businesses b ON b.id = c.business_id
   WHERE c.id = $1 AND c.kind = 'developer_app' AND c.deleted_at IS NULL`;

const publicInfo = (r: InfoRow) => ({
  client_id: r.client_id, name: r.name, description: r.description, homepage_url: r.homepage_url, logo_url: r.logo_url, publisher: r.publisher,
});

/**
 * The app and its registered scopes when `redirectUri` is exactly one of its redirect URIs: an
 * unknown app is 404, another redirect URI 422 on `redirect_uri` (the page shows both, never redirects).
 */
export async function consentApp(db: Queryable, clientId: string, redirectUri: string) {
  const [row] = await db.query<InfoRow>(INFO_SQL, [clientId, redirectUri]);
  if (!row) throw new ApiError('REQUEST_7004', 'This application was not found: the link that brought you here is wrong or the app was deleted.');
  if (!row.registered) throw validationError({ redirect_uri: 'redirect_uri is not registered for this application' });
  return { info: publicInfo(row), scopes: row.scopes.filter(isApiScope) };
}

type ConsentBody = { client_id: string; redirect_uri: string; scope: string; state: string; code_challenge: string };

/** Allow: a code (60 s, sha256 stored) bound to the app, redirect URI, PKCE challenge, scopes, business and person. */
export async function createConsent(tx: Queryable, businessId: string, userId: string, body: ConsentBody, nowMs: number) {
  const { scopes: registered } = await consentApp(tx, body.client_id, body.redirect_uri);
  const asked = [...new Set(body.scope.split(' ').filter(Boolean))];
  const outside = asked.filter((s) => !isApiScope(s) || !registered.includes(s));
  if (outside.length > 0) throw validationError({ scope: `scope asks for what this application did not register: ${outside.join(' ')}` });
  const code = randomBytes(32).toString('base64url');
  await tx.query(
    `INSERT INTO oauth_codes (code_hash, app_id, business_id, user_id, redirect_uri, code_challenge, scopes, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [hashSecret(code), body.client_id, businessId, userId, body.redirect_uri, body.code_challenge, asked, new Date(nowMs),
      new Date(nowMs + AUTHORIZATION_CODE_TTL_SECONDS * 1000)],
  );
  // Spent and expired codes are kept a day (a reuse within it still revokes), then pruned as new ones come.
  await tx.query("DELETE FROM oauth_codes WHERE expires_at < $1::timestamptz - interval '1 day'", [new Date(nowMs)]);
  const target = new URL(body.redirect_uri);
  target.searchParams.append('code', code);
  target.searchParams.append('state', body.state);
  return { code, redirect_to: target.toString() };
}

type GrantRow = InfoRow & { id: string; grant_scopes: string[]; user_id: string; user_name: string; created_at: Date; last_used_at: Date | null };

/** Connected apps: the business's live grants of live apps, newest first. */
export async function grantDocs(db: Queryable, businessId: string): Promise<OAuthGrant[]> {
  const rows = await db.query<GrantRow>(
    `SELECT g.id, g.scopes AS grant_scopes, g.user_id, trim(u.first_name || ' ' || u.last_name) AS user_name, g.created_at, g.last_used_at,
            c.id AS client_id, c.name, d.description, d.homepage_url, d.logo_url, b.name AS publisher, c.scopes, true AS registered
       FROM oauth_grants g
       JOIN api_clients c ON c.id = g.app_id AND c.deleted_at IS NULL
       JOIN developer_apps d ON d.id = c.id
       JOIN businesses b ON b.id = c.business_id
       JOIN spend_users u ON u.id = g.user_id
      WHERE g.business_id = $1 AND g.revoked_at IS NULL
      ORDER BY g.created_at DESC, g.id`,
    [businessId],
  );
  return rows.map((r) => ({
    id: r.id, app: publicInfo(r), scopes: r.grant_scopes.filter((s) => isApiScope(s) && r.scopes.includes(s)) as OAuthGrant['scopes'],
    allowed_by: { id: r.user_id, name: r.user_name }, created_at: new Date(r.created_at).toISOString(),
    last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : null,
  }));
}

/** Disconnect: 404 for another business's grant, an unknown or an already revoked one. */
export async function disconnectGrant(tx: Queryable, businessId: string, grantId: string, nowMs: number): Promise<void> {
  const [row] = await tx.query<{ id: string }>(
    'SELECT id FROM oauth_grants WHERE id = $1 AND business_id = $2 AND revoked_at IS NULL FOR UPDATE', [grantId, businessId],
  );
  if (!row) throw new ApiError('REQUEST_7004', 'This connected app was not found.');
  await revokeGrants(tx, { grantId }, nowMs);
}

