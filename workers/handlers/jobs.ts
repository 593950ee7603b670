import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const JOB_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: async jobs, statements and event history (schema/api/calls-jobs.ts). Direct calls, online only. */
export const JOB_DOMAIN = onlineDomain(JOB_OFFLINE, {});

export type JobApi = OnlineApi<typeof JOB_DOMAIN>;

export const jobWorkerHandlers = (port: OnlinePort): JobApi => bindDomain(port, JOB_DOMAIN);
