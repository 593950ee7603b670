import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const HRIS_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: the HRIS connection: CSV and SFTP-drop imports with a diff (schema/api/calls-hris.ts). Direct calls, online only. */
export const HRIS_DOMAIN = onlineDomain(HRIS_OFFLINE, {});

export type HrisApi = OnlineApi<typeof HRIS_DOMAIN>;

export const hrisWorkerHandlers = (port: OnlinePort): HrisApi => bindDomain(port, HRIS_DOMAIN);
