import {
  deleteChatConnection, listChatConnections, openChatLink, putChatConnection, testChatConnection,
  type ChatConnection, type ChatConnectionBody, type ChatProvider,
} from '../../schema/api/calls-chat.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const CHAT_OFFLINE = offlineFailure('You’re offline. Slack and Teams settings live on the server and need a connection: nothing was sent.');

const params = (provider: ChatProvider) => ({ params: { provider } });

/**
 * Issue 32: Slack and Teams incoming webhooks (schema/api/calls-chat.ts): the business's channels,
 * connecting, disconnecting, a test post, and opening a signed link from a post. Direct calls, online only.
 */
export const CHAT_DOMAIN = onlineDomain(CHAT_OFFLINE, {
  chatConnections: via(listChatConnections, () => ({}), (d) => ({ connections: d.data })),
  saveChatConnection: via(putChatConnection, (provider: ChatProvider, body: ChatConnectionBody) => ({ ...params(provider), body }),
    (d: ChatConnection) => ({ connection: d })),
  disconnectChat: via(deleteChatConnection, params, () => ({})),
  testChatConnection: via(testChatConnection, params, (d) => ({ delivered: d.delivered, message: d.message, connection: d.connection })),
  openChatLink: via(openChatLink, (token: string) => ({ body: { token } }), (d) => ({ path: d.path })),
});

export type ChatApi = OnlineApi<typeof CHAT_DOMAIN>;

export const chatWorkerHandlers = (port: OnlinePort): ChatApi => bindDomain(port, CHAT_DOMAIN);
