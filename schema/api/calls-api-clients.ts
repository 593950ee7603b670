/**
 * Issue 32: developer applications and customer API clients (OAuth 2.0 client credentials). Calls are declared here (defineCall) and listed in API_CLIENT_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const API_CLIENT_CALLS = [] as const;
