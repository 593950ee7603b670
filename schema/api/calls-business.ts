import { z } from 'zod';
import { defineCall } from './define-call.ts';

/**
 * Switching business (§3/§6/§7): a person with spend users in several businesses moves the
 * session to another of them. Spread into CATALOGUE by calls.ts; must not import calls.ts.
 */
export const switchBusiness = defineCall({
  id: 'users.switchBusiness',
  method: 'PATCH',
  path: '/v1/auth/users/current/business',
  auth: { scopes: ['default'] },
  body: z.object({ business_id: z.uuid() }),
  /** The same shape as sign-in: mfa_required means the new business asks for MFA first. */
  response: z.object({ id_token: z.string(), mfa_required: z.boolean() }),
});

/** The businesses an identity belongs to, named for the switcher (GET /v1/auth/identity). */
export const identityBusinessesSchema = z.array(z.object({ id: z.uuid(), name: z.string() }));

export const BUSINESS_CALLS = [switchBusiness] as const;
