import {
  getEmailVerification, getSupportAccess, grantSupportAccess, revokeSupportAccess, sendEmailVerification, verifyEmail,
  type EmailVerificationState, type SupportAccessGrant, type SupportAccessGrantBody,
} from '../../schema/api/calls-support-access.ts';
import type { OnlineFailure } from '../contracts/views.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** A support access or email verification call's refusal. `offline`: nothing was sent (direct calls, online only). */
export type SupportAccessFailure = OnlineFailure;
export type SupportAccessResult = { ok: true; grant: SupportAccessGrant | null } | SupportAccessFailure;
export type EmailVerificationResult = { ok: true; verification: EmailVerificationState } | SupportAccessFailure;

/** Refused before any request: support access and email verification are decided on the server (nothing mirrored or queued). */
export const SUPPORT_ACCESS_OFFLINE = offlineFailure('You’re offline. This needs a connection: nothing was sent.');

const grant = (d: { grant: SupportAccessGrant | null }) => ({ grant: d.grant });
const verification = (v: EmailVerificationState) => ({ verification: v });

/**
 * Issue 24 (schema/api/calls-support-access.ts): the business's support access grant (owners
 * and admins: see, turn on for 1–14 days, revoke) and the signed-in person's email verification
 * (the code sign-up mailed). Direct calls, online only.
 */
export const SUPPORT_ACCESS_CALLS = onlineDomain(SUPPORT_ACCESS_OFFLINE, {
  /** The latest grant, live or ended (null: never turned on). */
  supportAccess: via(getSupportAccess, () => ({}), grant),
  /** Turns it on (replacing a live grant): `days` 1–14, read-only unless `allow_writes`. */
  grantSupportAccess: via(grantSupportAccess, (body: SupportAccessGrantBody) => ({ body }), grant),
  /** Ends the live grant at once. */
  revokeSupportAccess: via(revokeSupportAccess, () => ({}), grant),
  emailVerification: via(getEmailVerification, () => ({}), verification),
  /** Mails a new code (PROFILE_7027 when verified; AUTH_7029 past the limit). */
  sendEmailVerification: via(sendEmailVerification, () => ({ body: {} }), (d) => ({ expires_at: d.expires_at })),
  /** PROFILE_7016 expired, PROFILE_7017 invalid, PROFILE_7027 already verified. */
  verifyEmail: via(verifyEmail, (code: string) => ({ body: { code } }), verification),
});

export type SupportAccessApi = OnlineApi<typeof SUPPORT_ACCESS_CALLS>;

export const supportAccessHandlers = (port: OnlinePort): SupportAccessApi => bindDomain(port, SUPPORT_ACCESS_CALLS);
