/**
 * Issue 32: the OpenAPI document, billing subscriptions, the maintenance switch, phone confirmation, webinar invitations. Calls are declared here (defineCall) and listed in PLATFORM_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const PLATFORM_CALLS = [] as const;
