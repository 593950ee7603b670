import type { DomainHandlers } from '../http/handler.ts';

/** Issue 32: async jobs, statements and event history (schema/api/calls-jobs.ts). */
export const jobHandlers = {} satisfies DomainHandlers;
