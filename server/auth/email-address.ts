/**
 * The one case-folding of email addresses. Every address that enters the server (sign-in,
 * sign-up, passwordless, invites, email changes, the dev outbox, limit keys) goes through it
 * once at the boundary, and is stored folded; SQL compares `lower(email)` (the unique index's
 * expression, so lookups use it) with the folded value. Two spellings of one address must never
 * be two accounts, two limit budgets or two mailboxes.
 */
export const foldEmail = (email: string): string => email.trim().toLowerCase();
