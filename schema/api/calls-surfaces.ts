import { z } from 'zod';
import { ANY_SURFACE } from './scopes.ts';
import { callGroup } from './call-group.ts';
import { scopeChoiceSchema, scopeTargetSchema } from '../entities/scope-choice.ts';
import { AUDIT_LOG_CALLS } from './calls-audit-log.ts';

/**
 * Issue 31, §4 business-scope identities: one identity may hold several (spend users in
 * businesses, a firm user, vendor network admins, financing applicants) and picks one. Both calls
 * answer any surface's token; the switch re-issues a token on the same session, as the business
 * switch does (MFA state carried over), for a scope the identity holds (404 4014 otherwise).
 */
const group = callGroup('/v1/auth', { scopes: ['default'] });

export const listScopes = group('identity.scopes.list', 'GET', '/identity/scopes', {
  surfaces: ANY_SURFACE,
  response: z.object({ scopes: z.array(scopeChoiceSchema) }),
});
export const switchScope = group('identity.scopes.switch', 'PATCH', '/users/current/scope', {
  surfaces: ANY_SURFACE,
  body: z.object({ scope: scopeTargetSchema }),
  response: z.object({ id_token: z.string(), mfa_required: z.boolean() }),
});

/** The served calls of this file (a call enters with its handler, server/routes/surfaces.ts). */
export const SURFACE_CALLS = [listScopes, switchScope, ...AUDIT_LOG_CALLS] as const;
