import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const SCIM_INTEGRATION_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2 (schema/api/calls-scim.ts). Direct calls, online only. */
export const SCIM_INTEGRATION_CALLS = onlineDomain(SCIM_INTEGRATION_OFFLINE, {});

export type ScimApi = OnlineApi<typeof SCIM_INTEGRATION_CALLS>;

export const scimIntegrationWorkerHandlers = (port: OnlinePort): ScimApi => bindDomain(port, SCIM_INTEGRATION_CALLS);
