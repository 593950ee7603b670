import { bindDomain, offlineFailure, onlineDomain, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const SAVED_VIEW_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

/** Issue 32: saved views, export table user-settings, export of primary cards, business feature flags (schema/api/calls-saved-views.ts). Direct calls, online only. */
export const SAVED_VIEW_DOMAIN = onlineDomain(SAVED_VIEW_OFFLINE, {});

export type SavedViewApi = OnlineApi<typeof SAVED_VIEW_DOMAIN>;

export const savedViewWorkerHandlers = (port: OnlinePort): SavedViewApi => bindDomain(port, SAVED_VIEW_DOMAIN);
