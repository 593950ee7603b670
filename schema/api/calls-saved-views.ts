/**
 * Issue 32: saved views, export table user-settings, export of primary cards, business feature flags. Calls are declared here (defineCall) and listed in SAVED_VIEW_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const SAVED_VIEW_CALLS = [] as const;
