import { z } from 'zod';
import { defineCall } from './define-call.ts';

/**
 * Issue 32: Slack and Teams incoming webhooks (docs/design/issue-32-mail-chat.md, "Slack and
 * Teams"). A business posts approval requests and rejections to a channel through each provider's
 * incoming webhook, with signed links back into the app. Managed by admins and IT admins
 * (`canManageIntegrations`). Listed in CHAT_CALLS; the catalogue (calls.ts) includes them.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/chat';

export const CHAT_PROVIDERS = ['slack', 'teams'] as const;
export type ChatProvider = (typeof CHAT_PROVIDERS)[number];
/** The notification kinds a channel can hear. */
export const CHAT_EVENTS = ['approval_waiting', 'rejected'] as const;
export type ChatEvent = (typeof CHAT_EVENTS)[number];
export const CHAT_WEBHOOK_URL_MAX = 500;

export const chatConnectionSchema = z.object({
  provider: z.enum(CHAT_PROVIDERS),
  /** The webhook URL is a secret: only its last 4 characters are answered (`…AbCd`). */
  webhook_url_hint: z.string(),
  events: z.array(z.enum(CHAT_EVENTS)),
  connected_by: z.object({ id: z.uuid(), name: z.string() }),
  updated_at: z.string(),
  /** The latest post (queued or a test): null before the first. */
  last_post: z.object({ at: z.string(), ok: z.boolean(), error: z.string().nullable() }).nullable(),
  /** Posts waiting to go out (new, or retrying after a failure). */
  posts_waiting: z.number().int().nonnegative(),
});
export type ChatConnection = z.infer<typeof chatConnectionSchema>;

export const chatConnectionBodySchema = z.object({
  webhook_url: z.string().trim().min(1).max(CHAT_WEBHOOK_URL_MAX),
  events: z.array(z.enum(CHAT_EVENTS)).min(1).max(CHAT_EVENTS.length),
});
export type ChatConnectionBody = z.input<typeof chatConnectionBodySchema>;

const providerParams = z.object({ provider: z.enum(CHAT_PROVIDERS) });

export const listChatConnections = defineCall({
  id: 'chat.connections.list', method: 'GET', path: `${BASE}/connections`, auth: scopes,
  response: z.object({ data: z.array(chatConnectionSchema) }),
});
/** Connects (or changes) a provider's webhook. The URL must be a public https address: an inside address is refused (422). */
export const putChatConnection = defineCall({
  id: 'chat.connections.put', method: 'PUT', path: `${BASE}/connections/:provider`, auth: scopes,
  params: providerParams, body: chatConnectionBodySchema, response: chatConnectionSchema,
});
/** Disconnects: posts still waiting for that provider are dropped. */
export const deleteChatConnection = defineCall({
  id: 'chat.connections.delete', method: 'DELETE', path: `${BASE}/connections/:provider`, auth: scopes,
  params: providerParams, response: z.object({ disconnected: z.literal(true) }),
});
/** Posts a test message now and answers what the webhook said. */
export const testChatConnection = defineCall({
  id: 'chat.connections.test', method: 'POST', path: `${BASE}/connections/:provider/test`, auth: scopes,
  params: providerParams,
  response: z.object({ delivered: z.boolean(), status: z.number().int().nullable(), message: z.string(), connection: chatConnectionSchema }),
});
/**
 * A signed link from a chat post, opened by a signed-in person: answers the app path it names
 * when the signature holds, it has not expired and it names the caller's business (else 404);
 * an expired link is 422. The link proves only that we made it and which item it names.
 */
export const openChatLink = defineCall({
  id: 'chat.links.open', method: 'POST', path: `${BASE}/links/open`, auth: scopes,
  body: z.object({ token: z.string().min(1).max(2000) }),
  response: z.object({ path: z.string() }),
});

export const CHAT_CALLS = [listChatConnections, putChatConnection, deleteChatConnection, testChatConnection, openChatLink] as const;
