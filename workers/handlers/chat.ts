import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const CHAT_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: Slack and Teams incoming webhooks, and the mail queue (schema/api/calls-chat.ts). Direct calls, online only. */
export const CHAT_DOMAIN = onlineDomain(CHAT_OFFLINE, {});

export type ChatApi = OnlineApi<typeof CHAT_DOMAIN>;

export const chatWorkerHandlers = (port: OnlinePort): ChatApi => bindDomain(port, CHAT_DOMAIN);
