/**
 * Issue 32: SCIM integrations (bearer tokens per integration) for /scim/v2. Calls are declared here (defineCall) and listed in SCIM_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const SCIM_CALLS = [] as const;
