import type { z } from 'zod';
import {
  createApiClient, createApiClientSecret, deleteApiClient, deleteApiClientSecret, getApiClient, listApiClients,
  type ApiClient, type ApiClientRequest,
} from '../../schema/api/calls-api-clients.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const API_CLIENT_OFFLINE = offlineFailure('You’re offline. API clients are managed on the server and need a connection: nothing was sent.');

export type ApiClientView = ApiClient;
export type ApiClientRequestView = ApiClientRequest;
export type NewApiClientInput = z.input<typeof createApiClient.body>;

const client = (id: string) => ({ client_id: id });

/**
 * Issue 32: customer API clients (schema/api/calls-api-clients.ts). Direct calls, online only.
 * Creating (it answers the first secret), a new secret and deleting are §6 sensitive: the answer
 * may ask for a step-up, which the page's useSensitiveAction handles. A new secret is answered
 * once, in `secret.client_secret`, and never again.
 */
export const API_CLIENT_DOMAIN = onlineDomain(API_CLIENT_OFFLINE, {
  apiClients: via(listApiClients, () => ({}), (d) => ({ clients: d.data })),
  apiClient: via(getApiClient, (id: string) => ({ params: client(id) }), (d) => d),
  createApiClient: via(createApiClient, (body: NewApiClientInput) => ({ body }), (d) => d),
  /** `rotate`: every other live secret is revoked in the same step. */
  createApiClientSecret: via(createApiClientSecret, (id: string, rotate: boolean) => ({ params: client(id), body: { revoke_existing: rotate } }), (d) => d),
  revokeApiClientSecret: via(deleteApiClientSecret, (secretId: string) => ({ params: { secret_id: secretId } }), (d) => d),
  deleteApiClient: via(deleteApiClient, (id: string) => ({ params: client(id) })),
});

export type ApiClientApi = OnlineApi<typeof API_CLIENT_DOMAIN>;

export const apiClientWorkerHandlers = (port: OnlinePort): ApiClientApi => bindDomain(port, API_CLIENT_DOMAIN);
