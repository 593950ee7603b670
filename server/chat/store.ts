import type { ChatConnection, ChatConnectionBody, ChatEvent, ChatProvider } from '../../schema/api/calls-chat.ts';
import { chatConnectionBodySchema } from '../../schema/api/calls-chat.ts';
import { ApiError, validationError } from '../core/errors.ts';
import { outboundUrlAllowed, type OutboundOptions } from '../core/outbound-fetch.ts';
import type { Queryable } from '../db/db.ts';

/**
 * A business's chat channels (issue 32): one incoming webhook per provider. The URL is a secret
 * (whoever holds it can post to the channel): it is answered masked, and never logged.
 */
export type ChatNet = Pick<OutboundOptions, 'allowLoopbackHttp' | 'dnsServer'>;

export type ChatConnectionRow = {
  provider: ChatProvider; webhook_url: string; events: ChatEvent[]; connected_by: string; connected_by_name: string;
  updated_at: string; last_post_at: string | null; last_post_ok: boolean | null; last_error: string | null; waiting: number;
};

export const PROVIDER_NAME: Record<ChatProvider, string> = { slack: 'Slack', teams: 'Microsoft Teams' };

const SELECT = `SELECT c.provider, c.webhook_url, c.events, c.connected_by::text, trim(u.first_name || ' ' || u.last_name) AS connected_by_name,
  ll_iso(c.updated_at) AS updated_at, ll_iso(c.last_post_at) AS last_post_at, c.last_post_ok, c.last_error,
  (SELECT count(*)::int FROM chat_posts p WHERE p.business_id = c.business_id AND p.provider = c.provider AND p.state = 'queued') AS waiting
  FROM chat_connections c JOIN spend_users u ON u.id = c.connected_by`;

export async function listConnections(db: Queryable, businessId: string): Promise<ChatConnectionRow[]> {
  return db.query<ChatConnectionRow>(`${SELECT} WHERE c.business_id = $1 ORDER BY c.provider`, [businessId]);
}

export async function loadConnection(db: Queryable, businessId: string, provider: ChatProvider): Promise<ChatConnectionRow | null> {
  const rows = await db.query<ChatConnectionRow>(`${SELECT} WHERE c.business_id = $1 AND c.provider = $2`, [businessId, provider]);
  return rows[0] ?? null;
}

/** The connection a call needs; 404 when the provider is not connected. */
export async function requireConnection(db: Queryable, businessId: string, provider: ChatProvider): Promise<ChatConnectionRow> {
  const row = await loadConnection(db, businessId, provider);
  if (!row) throw new ApiError('REQUEST_7004', `${PROVIDER_NAME[provider]} is not connected.`);
  return row;
}

export const maskWebhook = (url: string) => `…${url.slice(-4)}`;

export function connectionDto(row: ChatConnectionRow): ChatConnection {
  return {
    provider: row.provider, webhook_url_hint: maskWebhook(row.webhook_url), events: row.events,
    connected_by: { id: row.connected_by, name: row.connected_by_name }, updated_at: row.updated_at,
    last_post: row.last_post_at === null ? null : { at: row.last_post_at, ok: row.last_post_ok === true, error: row.last_error },
    posts_waiting: row.waiting,
  };
}

const EXAMPLE: Record<ChatProvider, string> = {
  slack: 'https://hooks.slack.com/services/…',
  teams: 'https://….webhook.office.com/… or a Teams workflow URL',
};

/**
 * The webhook URL as given, checked before anything is stored: a URL, https, and a host whose
 * every address is public (server/core/outbound-fetch.ts, the same rules as the post itself);
 * anything else is 422 on `webhook_url` saying what to paste instead.
 */
export async function checkWebhookUrl(provider: ChatProvider, text: string, net: ChatNet): Promise<string> {
  const url = URL.canParse(text) ? new URL(text) : null;
  const where = `Paste the incoming webhook URL ${PROVIDER_NAME[provider]} gave you (${EXAMPLE[provider]}).`;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw validationError({ webhook_url: `webhook_url must be a valid URL. ${where}` });
  if (url.username || url.password) throw validationError({ webhook_url: 'webhook_url must not contain a user name or password.' });
  if (url.protocol === 'http:' && !net.allowLoopbackHttp) throw validationError({ webhook_url: `webhook_url must start with https://. ${where}` });
  if (!(await outboundUrlAllowed(url.toString(), net))) {
    throw validationError({ webhook_url: 'webhook_url must be a public https address: internal, private and loopback addresses (and names that resolve to them) are refused.' });
  }
  return url.toString();
}

export async function saveConnection(
  tx: Queryable, businessId: string, userId: string, provider: ChatProvider, asked: ChatConnectionBody, webhookUrl: string,
): Promise<ChatConnectionRow> {
  const body = chatConnectionBodySchema.parse(asked);
  const events = [...new Set(body.events)];
  await tx.query(
    `INSERT INTO chat_connections (business_id, provider, webhook_url, events, connected_by)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (business_id, provider) DO UPDATE SET webhook_url = EXCLUDED.webhook_url, events = EXCLUDED.events,
       connected_by = EXCLUDED.connected_by, updated_at = now(),
       last_post_at = CASE WHEN chat_connections.webhook_url = EXCLUDED.webhook_url THEN chat_connections.last_post_at END,
       last_post_ok = CASE WHEN chat_connections.webhook_url = EXCLUDED.webhook_url THEN chat_connections.last_post_ok END,
       last_error = CASE WHEN chat_connections.webhook_url = EXCLUDED.webhook_url THEN chat_connections.last_error END`,
    [businessId, provider, webhookUrl, events, userId],
  );
  return (await loadConnection(tx, businessId, provider))!;
}

/** Disconnects one provider; its posts still waiting are dropped (a claimed one finds it gone and stops). */
export async function deleteConnection(tx: Queryable, businessId: string, provider: ChatProvider): Promise<void> {
  const rows = await tx.query('DELETE FROM chat_connections WHERE business_id = $1 AND provider = $2 RETURNING 1', [businessId, provider]);
  if (rows.length === 0) throw new ApiError('REQUEST_7004', `${PROVIDER_NAME[provider]} is not connected.`);
  await tx.query(
    `UPDATE chat_posts SET state = 'dropped', finished_at = now(), leased_until = NULL, last_error = 'Disconnected before it was posted.'
      WHERE business_id = $1 AND provider = $2 AND state = 'queued'`,
    [businessId, provider],
  );
}

/** Records the latest post's outcome for the settings page. */
export async function recordOutcome(db: Queryable, businessId: string, provider: ChatProvider, at: Date, error: string | null): Promise<void> {
  await db.query(
    'UPDATE chat_connections SET last_post_at = $3, last_post_ok = $4, last_error = $5 WHERE business_id = $1 AND provider = $2',
    [businessId, provider, at.toISOString(), error === null, error],
  );
}
