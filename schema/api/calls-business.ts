import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { ANY_SURFACE } from './scopes.ts';
import { merchantCategorySchema } from '../entities/card.ts';
import { MAX_BLOCKED_MERCHANT_CATEGORIES } from '../card-rules.ts';

/**
 * Switching business (§3/§6/§7): a person with spend users in several businesses moves the
 * session to another of them. Spread into CATALOGUE by calls.ts; must not import calls.ts.
 */
export const switchBusiness = defineCall({
  id: 'users.switchBusiness',
  method: 'PATCH',
  path: '/v1/auth/users/current/business',
  auth: { scopes: ['default'] },
  /** Issue 31: back into a business from any surface (an approved applicant, a firm user). */
  surfaces: ANY_SURFACE,
  body: z.object({ business_id: z.uuid() }),
  /** The same shape as sign-in: mfa_required means the new business asks for MFA first. */
  response: z.object({ id_token: z.string(), mfa_required: z.boolean() }),
});

/** The businesses an identity belongs to, named for the switcher (GET /v1/auth/identity). */
export const identityBusinessesSchema = z.array(z.object({ id: z.uuid(), name: z.string() }));

/**
 * §7 Businesses `PUT merchant restrictions` (issue 29): the merchant categories every card of the
 * business is refused at (schema/card-rules.ts `authorizeBusiness`; the decline names the
 * business rule, BUSINESS_MERCHANT_CATEGORY_BLOCKED). Stored trimmed, without repeats (case-blind)
 * and sorted; the whole list is replaced. Everyone in the business may read it (the card pages
 * say why a purchase would be declined); only admins change it.
 */
export const merchantRestrictionsSchema = z.object({
  blocked_merchant_categories: z.array(z.string()),
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type MerchantRestrictions = z.infer<typeof merchantRestrictionsSchema>;
const RESTRICTIONS_PATH = '/v1/auth/businesses/merchant-restrictions';
export const getMerchantRestrictions = defineCall({
  id: 'businesses.merchantRestrictions.get', method: 'GET', path: RESTRICTIONS_PATH, auth: { scopes: ['default'] },
  response: merchantRestrictionsSchema,
});
export const putMerchantRestrictions = defineCall({
  id: 'admin.merchantRestrictions.put', method: 'PUT', path: RESTRICTIONS_PATH, auth: { scopes: ['default'] },
  body: z.object({ blocked_merchant_categories: z.array(merchantCategorySchema).max(MAX_BLOCKED_MERCHANT_CATEGORIES) }),
  response: merchantRestrictionsSchema,
});

export const BUSINESS_CALLS = [switchBusiness, getMerchantRestrictions, putMerchantRestrictions] as const;
