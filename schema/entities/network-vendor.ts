import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';
import { bankAccountTypeSchema, vendorAddressSchema } from './vendor.ts';

/**
 * A network vendor (issue 31, docs/design/issue-31-surfaces.md §2.3): one company many payers pay,
 * administered from the vendor portal. Answered masked: the TIN and bank numbers travel as their
 * last four digits only; the ciphertext never leaves the server.
 */
export const TIN_TYPES = ['EIN', 'SSN'] as const;
export const tinTypeSchema = z.enum(TIN_TYPES);

export const NETWORK_DOCUMENT_KINDS = ['W9', 'W8BEN', 'W8BENE', 'OTHER'] as const;
export type NetworkDocumentKind = (typeof NETWORK_DOCUMENT_KINDS)[number];
/** Each kind's short name (a list, a file name) and its name with what it is for (the upload picker). */
export const NETWORK_DOCUMENT_NAMES: Record<NetworkDocumentKind, { short: string; long: string }> = {
  W9: { short: 'W-9', long: 'W-9 (US tax form)' },
  W8BEN: { short: 'W-8BEN', long: 'W-8BEN (foreign individual)' },
  W8BENE: { short: 'W-8BEN-E', long: 'W-8BEN-E (foreign entity)' },
  OTHER: { short: 'Document', long: 'Other document' },
};
/** The file extension of a stored document's type (PDF, PNG or JPEG: all the upload takes). */
export const networkDocumentExtension = (contentType: string) =>
  (contentType === 'application/pdf' ? 'pdf' : contentType === 'image/png' ? 'png' : 'jpg');
export const networkDocumentKindSchema = z.enum(NETWORK_DOCUMENT_KINDS);

export const networkDocumentSchema = z.object({
  id: uuid,
  kind: networkDocumentKindSchema,
  content_type: z.enum(['application/pdf', 'image/png', 'image/jpeg']),
  size: z.number().int().positive(),
  sha256: z.string(),
  uploaded_at: isoDateTime,
});
export type NetworkDocument = z.infer<typeof networkDocumentSchema>;

export const networkVendorProfileSchema = z.object({
  id: uuid,
  legal_name: z.string(),
  email: z.string(),
  address: vendorAddressSchema.nullable(),
  address_verified_at: isoDateTime.nullable(),
  tin: z.object({ type: tinTypeSchema, last_four: z.string().regex(/^\d{4}$/), verified_at: isoDateTime.nullable() }).nullable(),
  bank: z.object({
    type: bankAccountTypeSchema,
    holder_name: z.string().nullable(),
    routing_last_four: z.string().regex(/^\d{4}$/),
    account_last_four: z.string().regex(/^\d{4}$/),
    verified_at: isoDateTime.nullable(),
  }).nullable(),
  /** USD wire details (lead's decision 3), masked. */
  wire: z.object({ bank_name: z.string(), routing_last_four: z.string(), account_last_four: z.string() }).nullable(),
  documents: z.array(networkDocumentSchema),
});
export type NetworkVendorProfile = z.infer<typeof networkVendorProfileSchema>;

/** A payer linked to this network vendor, as the portal lists it. */
export const networkPayerSchema = z.object({
  business_id: uuid,
  business_name: z.string(),
  vendor_id: uuid,
  status: z.enum(['INVITED', 'ACTIVE', 'DECLINED']),
  joined_at: isoDateTime.nullable(),
  verified_fields: z.array(z.enum(['address', 'bank', 'tin'])),
});
export type NetworkPayer = z.infer<typeof networkPayerSchema>;
