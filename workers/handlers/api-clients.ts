import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const API_CLIENT_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: developer applications and customer API clients (OAuth 2.0 client credentials) (schema/api/calls-api-clients.ts). Direct calls, online only. */
export const API_CLIENT_DOMAIN = onlineDomain(API_CLIENT_OFFLINE, {});

export type ApiClientApi = OnlineApi<typeof API_CLIENT_DOMAIN>;

export const apiClientWorkerHandlers = (port: OnlinePort): ApiClientApi => bindDomain(port, API_CLIENT_DOMAIN);
