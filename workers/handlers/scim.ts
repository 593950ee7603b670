import {
  deleteScimIntegration, listScimIntegrations, putScimIntegration, type ScimIntegration, type ScimIntegrationBody,
} from '../../schema/api/calls-scim.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const SCIM_INTEGRATION_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2 (schema/api/calls-scim.ts). Direct calls, online only. */
export const SCIM_INTEGRATION_CALLS = onlineDomain(SCIM_INTEGRATION_OFFLINE, {
  scimIntegrations: via(listScimIntegrations, () => ({}), (d) => ({ integrations: d.integrations })),
  /** Creates (the token, once) or renames (token null); sensitive: a step-up answer asks first. */
  putScimIntegration: via(putScimIntegration, (body: ScimIntegrationBody) => ({ body }),
    (d): { integration: ScimIntegration; token: string | null } => ({ integration: d.integration, token: d.token })),
  /** Revokes: the token stops at once. Sensitive. */
  revokeScimIntegration: via(deleteScimIntegration, (id: string) => ({ params: { id } }), (d) => ({ id: d.id })),
});

export type ScimApi = OnlineApi<typeof SCIM_INTEGRATION_CALLS>;

export const scimIntegrationWorkerHandlers = (port: OnlinePort): ScimApi => bindDomain(port, SCIM_INTEGRATION_CALLS);
