/**
 * Issue 32: Slack and Teams incoming webhooks, and the mail queue. Calls are declared here (defineCall) and listed in CHAT_CALLS; the catalogue
 * (calls.ts) includes them.
 */
export const CHAT_CALLS = [] as const;
