import type { z } from 'zod';
import {
  createDeveloperApp, createOAuthConsent, deleteDeveloperApp, getOAuthApp, listDeveloperApps, listOAuthGrants, revokeOAuthGrant,
  rotateDeveloperAppSecret,
} from '../../schema/api/calls-developer-apps.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** Refused before any request: decided on the server, nothing mirrored or queued. */
export const DEVELOPER_APP_OFFLINE = offlineFailure('You’re offline. Applications and connections are managed on the server and need a connection: nothing was sent.');

export type NewDeveloperAppInput = z.input<typeof createDeveloperApp.body>;
export type OAuthConsentInput = z.input<typeof createOAuthConsent.body>;

const app = (id: string) => ({ app_id: id });

/**
 * Issue 32: developer applications (schema/api/calls-developer-apps.ts). Direct calls, online only.
 * Registering (a confidential app answers its first secret), a new secret and deleting are §6
 * sensitive: the page's useSensitiveAction handles the step-up; the consent is a recent-token call.
 */
export const DEVELOPER_APP_DOMAIN = onlineDomain(DEVELOPER_APP_OFFLINE, {
  developerApps: via(listDeveloperApps, () => ({}), (d) => ({ apps: d.data })),
  createDeveloperApp: via(createDeveloperApp, (body: NewDeveloperAppInput) => ({ body }), (d) => d),
  rotateDeveloperAppSecret: via(rotateDeveloperAppSecret, (id: string) => ({ params: app(id), body: {} }), (d) => d),
  deleteDeveloperApp: via(deleteDeveloperApp, (id: string) => ({ params: app(id) })),
  oauthApp: via(getOAuthApp, (clientId: string, redirectUri: string) => ({ params: { client_id: clientId }, query: { redirect_uri: redirectUri } }), (d) => d),
  createOAuthConsent: via(createOAuthConsent, (body: OAuthConsentInput) => ({ body }), (d) => d),
  oauthGrants: via(listOAuthGrants, () => ({}), (d) => ({ grants: d.data })),
  revokeOAuthGrant: via(revokeOAuthGrant, (id: string) => ({ params: { grant_id: id } })),
});

export type DeveloperAppApi = OnlineApi<typeof DEVELOPER_APP_DOMAIN>;

export const developerAppWorkerHandlers = (port: OnlinePort): DeveloperAppApi => bindDomain(port, DEVELOPER_APP_DOMAIN);
