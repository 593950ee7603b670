/**
 * Issue 31, §7 "Application and onboarding": the financing application's calls (surface
 * FINANCING_APPLICATION, scope `email-otp`, §6) and the Businesses calls it owns (BUSINESS).
 * Contract: docs/design/issue-31-surfaces.md §2.4 and §5.
 */

/** The served calls of this file (a call enters with its handler, server/routes/application.ts). */
export const APPLICATION_CALLS = [] as const;
