import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const PLATFORM_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: the OpenAPI document, billing subscriptions, the maintenance switch, phone confirmation, webinar invitations (schema/api/calls-platform.ts). Direct calls, online only. */
export const PLATFORM_DOMAIN = onlineDomain(PLATFORM_OFFLINE, {});

export type PlatformApi = OnlineApi<typeof PLATFORM_DOMAIN>;

export const platformWorkerHandlers = (port: OnlinePort): PlatformApi => bindDomain(port, PLATFORM_DOMAIN);
