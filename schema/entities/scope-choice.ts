import { z } from 'zod';
import { OTHER_SURFACE_CLAIMS } from '../api/scopes.ts';
import { uuid } from './common.ts';

/**
 * What a token is asked for when an identity picks one of its business-scope identities (§4,
 * issue 31): a business (its spend user there) or another surface's claim as the token will carry it.
 */
export const scopeTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('BUSINESS'), business_id: uuid }),
  ...OTHER_SURFACE_CLAIMS,
]);
export type ScopeTarget = z.infer<typeof scopeTargetSchema>;

/**
 * One business-scope identity an identity holds, as the scope picker lists it: the target, a label
 * (business name, firm name, vendor name, or the §3 financing application label), and a short
 * description of the role there ("Admin", "Firm admin", "Vendor", "Applicant").
 */
export const scopeChoiceSchema = z.object({
  target: scopeTargetSchema,
  label: z.string(),
  detail: z.string().nullable(),
});
export type ScopeChoice = z.infer<typeof scopeChoiceSchema>;
