import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: the OpenAPI document, billing subscriptions, the maintenance switch, phone confirmation, webinar invitations (schema/api/calls-platform.ts). */
export const platformHandlers = {} satisfies DomainHandlers;
