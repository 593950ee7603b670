import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: developer applications and customer API clients (OAuth 2.0 client credentials) (schema/api/calls-api-clients.ts). */
export const apiClientHandlers = {} satisfies DomainHandlers;
