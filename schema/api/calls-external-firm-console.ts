import { z } from 'zod';
import { firmApplicationSchema, firmInviteSchema, firmUserRoleSchema, firmUserSchema, firmViewSchema } from '../entities/external-firm.ts';
import { INVITE_PASSWORD_MIN_LENGTH as PASSWORD_MIN_LENGTH } from './calls-admin.ts';
import { defineCall } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';

/**
 * Issue 31, the advisor console: the firm application, the firm and its team.
 * Contract: docs/design/issue-31-surfaces.md §2.4.
 */
const console = { scopes: ['default'] } as const;
const CONSOLE = ['ADVISOR_CONSOLE'] as const;
const name = z.string().trim().min(1).max(100);
const tokenResponse = z.object({ id_token: z.string(), mfa_required: z.boolean() });
const inviteToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'token must be a valid invite token');

/** Always 204, whether or not the email has an account (no account oracle): a code is mailed. */
export const firmApply = defineCall({
  id: 'firm.apply', method: 'POST', path: '/v1/public/external-firm/apply', auth: 'public',
  body: z.object({ firm_name: z.string().trim().min(1).max(200), email: z.email().max(320), first_name: name, last_name: name }),
  response: z.null(),
});
/** The mailed code: the firm at once (ADVISOR_CONSOLE) unless the screening holds it (ADVISOR_CONSOLE_APPLICATION). */
export const firmApplyVerify = defineCall({
  id: 'firm.apply.verify', method: 'POST', path: '/v1/public/external-firm/apply/verify', auth: 'public',
  body: z.object({ email: z.email().max(320), code: z.string().regex(/^\d{6}$/, 'code must be 6 digits') }),
  response: tokenResponse.extend({ surface: z.enum(['ADVISOR_CONSOLE', 'ADVISOR_CONSOLE_APPLICATION']) }),
});
export const firmApplicationGet = defineCall({
  id: 'firm.application.get', method: 'GET', path: '/v1/auth/external-firm/application', auth: console,
  surfaces: ['ADVISOR_CONSOLE_APPLICATION'], response: firmApplicationSchema,
});
export const firmGet = defineCall({
  id: 'firm.get', method: 'GET', path: '/v1/auth/external-firm', auth: console, surfaces: CONSOLE, response: firmViewSchema,
});
const inviteParams = z.object({ invite_id: z.uuid() });
export const firmInvitesCreate = defineCall({
  id: 'firm.invites.create', method: 'POST', path: '/v1/auth/external-firm/invites', auth: console, surfaces: CONSOLE,
  body: z.object({ email: z.email().max(320), role: firmUserRoleSchema }), response: firmInviteSchema,
});
export const firmInvitesResend = defineCall({
  id: 'firm.invites.resend', method: 'PUT', path: '/v1/auth/external-firm/invites/:invite_id/resend', auth: console, surfaces: CONSOLE,
  params: inviteParams, response: firmInviteSchema,
});
export const firmInvitesDelete = defineCall({
  id: 'firm.invites.delete', method: 'DELETE', path: '/v1/auth/external-firm/invites/:invite_id', auth: console, surfaces: CONSOLE,
  params: inviteParams, response: firmInviteSchema,
});
/** The mailed link proves the mailbox: a new identity with this password joins the firm. */
export const firmInvitesAccept = defineCall({
  id: 'firm.invites.accept', method: 'POST', path: '/v1/public/external-firm/invites/:token/accept', auth: 'public',
  params: z.object({ token: inviteToken }),
  body: z.object({
    password: z.string().min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`).max(1024),
    first_name: name, last_name: name,
  }),
  response: tokenResponse,
});
/** §6 recent-token rule: a signed-in identity of the invite's email joins the firm. */
export const firmInvitesAcceptSignedIn = defineCall({
  id: 'firm.invites.acceptAndCreateIdentity', method: 'POST', path: '/v1/auth/external-firm/invites/:token/accept-and-create-identity',
  auth: 'recent-token', surfaces: ANY_SURFACE,
  params: z.object({ token: inviteToken }), body: z.object({ first_name: name, last_name: name }), response: tokenResponse,
});
export const firmUsersDelete = defineCall({
  id: 'firm.users.delete', method: 'DELETE', path: '/v1/auth/external-firm/users/:firm_user_id', auth: console, surfaces: CONSOLE,
  params: z.object({ firm_user_id: z.uuid() }), response: firmUserSchema,
});

export const FIRM_CONSOLE_CALLS = [
  firmApply, firmApplyVerify, firmApplicationGet, firmGet, firmInvitesCreate, firmInvitesResend, firmInvitesDelete,
  firmInvitesAccept, firmInvitesAcceptSignedIn, firmUsersDelete,
] as const;
