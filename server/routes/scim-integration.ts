import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2 (schema/api/calls-scim.ts). */
export const scimIntegrationHandlers = {} satisfies DomainHandlers;
