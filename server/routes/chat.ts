import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: Slack and Teams incoming webhooks, and the mail queue (schema/api/calls-chat.ts). */
export const chatHandlers = {} satisfies DomainHandlers;
