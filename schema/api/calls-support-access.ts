/**
 * Issue 24: support access by the business's grant, and email verification at sign-up. Spread
 * into CATALOGUE by calls.ts.
 *
 * Support access: an owner or admin turns on "support access" for a period (at most
 * SUPPORT_ACCESS_MAX_DAYS, read-only unless allow_writes); Ledgerline support can impersonate a
 * person of the business only while a grant is live. Ids are `admin.*` (owners and admins only).
 *
 * Email verification: sign-up mails a 6-digit code; the person confirms it here. Until then the
 * new business can do nothing that reaches another business, a domain or another mailbox.
 */
import { z } from 'zod';
import { callGroup } from './call-group.ts';

const fullScopes = { scopes: ['default'] } as const;
/** The business's grant to support (admins: the server checks the role) and the user's own email verification. */
const supportAccess = callGroup('/v1/auth/businesses/support-access', fullScopes);
const emailVerification = callGroup('/v1/auth/users/current/email-verification', fullScopes);

export const SUPPORT_ACCESS_MAX_DAYS = 14;
export const SUPPORT_ACCESS_DEFAULT_DAYS = 3;

const isoDate = z.iso.datetime({ offset: true });
const personSchema = z.object({ user_id: z.uuid(), name: z.string() });

/** One grant as the admin sees it; `active` is live now (not revoked, not expired). */
const supportAccessGrantSchema = z.object({
  id: z.uuid(),
  active: z.boolean(),
  allow_writes: z.boolean(),
  created_at: isoDate,
  expires_at: isoDate,
  revoked_at: isoDate.nullable(),
  granted_by: personSchema,
  revoked_by: personSchema.nullable(),
});
export type SupportAccessGrant = z.infer<typeof supportAccessGrantSchema>;

/** The latest grant (live or ended), or null when support access was never turned on. */
const supportAccessStateSchema = z.object({ grant: supportAccessGrantSchema.nullable() });
export type SupportAccessState = z.infer<typeof supportAccessStateSchema>;

const supportAccessGrantBodySchema = z.object({
  /** Whole days, 1 to 14. */
  days: z.number().int().min(1).max(SUPPORT_ACCESS_MAX_DAYS),
  /** Support may change data (each change still names both people); default read-only. */
  allow_writes: z.boolean().optional(),
});
export type SupportAccessGrantBody = z.infer<typeof supportAccessGrantBodySchema>;

export const getSupportAccess = supportAccess('admin.supportAccess.get', 'GET', '', {
  response: supportAccessStateSchema,
});

/** Turns support access on (a new grant replaces a live one). 422 beyond 14 days. */
export const grantSupportAccess = supportAccess('admin.supportAccess.grant', 'POST', '', {
  body: supportAccessGrantBodySchema,
  response: supportAccessStateSchema,
});

/** Ends the live grant at once: impersonation tokens issued under it stop working. */
export const revokeSupportAccess = supportAccess('admin.supportAccess.revoke', 'DELETE', '', {
  response: supportAccessStateSchema,
});

const emailVerificationStateSchema = z.object({
  email: z.string(),
  verified: z.boolean(),
  verified_at: isoDate.nullable(),
});
export type EmailVerificationState = z.infer<typeof emailVerificationStateSchema>;

export const getEmailVerification = emailVerification('emailVerification.get', 'GET', '', {
  response: emailVerificationStateSchema,
});

/** Mails a new code (the older one stops working); PROFILE_7027 when already verified; 429 past the limits. */
export const sendEmailVerification = emailVerification('emailVerification.send', 'POST', '/send', {
  body: z.object({}).optional(),
  response: z.object({ sent: z.literal(true), expires_at: isoDate }),
});

/** PROFILE_7016 expired, PROFILE_7017 invalid, PROFILE_7027 already verified. */
export const verifyEmail = emailVerification('emailVerification.verify', 'POST', '/verify', {
  body: z.object({ code: z.string().regex(/^\d{6}$/, 'code must be a valid 6-digit code') }),
  response: emailVerificationStateSchema,
});

export const SUPPORT_ACCESS_CALLS = [
  getSupportAccess, grantSupportAccess, revokeSupportAccess, getEmailVerification, sendEmailVerification, verifyEmail,
] as const;
