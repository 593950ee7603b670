import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: saved views, export table user-settings, export of primary cards, business feature flags (schema/api/calls-saved-views.ts). */
export const savedViewHandlers = {} satisfies DomainHandlers;
