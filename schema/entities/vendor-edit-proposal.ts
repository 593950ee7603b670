import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';
import { bankAccountTypeSchema, vendorAddressSchema } from './vendor.ts';
import { tinTypeSchema } from './network-vendor.ts';

/**
 * A change a network vendor made to a value one payer already holds (issue 31, D9): the payer
 * accepts it (copying the vendor's verified details) or rejects it; the vendor may withdraw it.
 * Only masked values: never a number beyond its last four digits.
 */
export const EDIT_PROPOSAL_STATUSES = ['PENDING', 'ACCEPTED', 'REJECTED', 'WITHDRAWN'] as const;

export const editProposalFieldsSchema = z.object({
  address: vendorAddressSchema.optional(),
  bank: z.object({ type: bankAccountTypeSchema, routing_last_four: z.string(), account_last_four: z.string() }).optional(),
  tin: z.object({ type: tinTypeSchema, last_four: z.string() }).optional(),
  legal_name: z.string().optional(),
});
export type EditProposalFields = z.infer<typeof editProposalFieldsSchema>;

export const vendorEditProposalSchema = z.object({
  id: uuid,
  vendor_id: uuid,
  vendor_name: z.string(),
  business_id: uuid,
  business_name: z.string(),
  network_vendor_id: uuid,
  fields: editProposalFieldsSchema,
  status: z.enum(EDIT_PROPOSAL_STATUSES),
  created_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
});
export type VendorEditProposal = z.infer<typeof vendorEditProposalSchema>;
