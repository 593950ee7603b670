import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { uuid } from '../entities/common.ts';
import { applicationAddressSchema, businessDetailsSchema, controlPersonSchema } from '../entities/financing-application.ts';

/**
 * Issue 31, the Businesses calls assigned to the application area (docs/design/issue-31-surfaces.md
 * §2.4 "Businesses assigned to 31"): BUSINESS surface, admins only (FORBIDDEN_7003), `default`.
 * A business's address; its owners and control person, re-screened by the engine's sanctions step
 * (a hit flags the matched members' identities, §4); and the KYB of a further entity for card
 * issuing in a country (the engine's KYB part), stored on the entity.
 */
const group = callGroup('/v1/auth/businesses', { scopes: ['default'] });
const screening = z.enum(['PASSED', 'MANUAL_REVIEW']);

export const businessAddressPut = group('businesses.address.put', 'PUT', '/:business_uuid/address', {
  params: z.object({ business_uuid: uuid }),
  body: z.object({ address: applicationAddressSchema }),
  response: z.object({ business_id: uuid, address: applicationAddressSchema }),
});

const kybKycSchema = z.object({
  owners: z.array(z.object({
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320).nullable().optional(),
    percent_bp: z.number().int().min(0).max(10000),
  })).max(10),
  control_person: controlPersonSchema.omit({ is_applicant: true }),
});
export const businessKybKycPut = group('businesses.kybKyc.put', 'PUT', '/kyb-kyc', {
  body: kybKycSchema,
  response: kybKycSchema.extend({ ofac_status: screening, screened_at: z.string(), matched: z.array(z.string()) }),
});

const issuingOnboardingResultSchema = z.object({
  country: z.string(),
  status: z.enum(['APPROVED', 'MANUAL_REVIEW', 'REJECTED']),
  reasons: z.array(z.string()),
  decided_at: z.string(),
});
export const businessIssuingOnboardingPut = group('businesses.issuingOnboarding.put', 'PUT', '/entities/:entity_uuid/issuing-onboarding/:country', {
  params: z.object({ entity_uuid: uuid, country: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code') }),
  body: businessDetailsSchema.pick({ legal_name: true, dba: true, entity_type: true, ein: true, incorporation_date: true, address: true }),
  response: issuingOnboardingResultSchema,
});
