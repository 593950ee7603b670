import { z } from 'zod';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';

/**
 * Vendors (payees, issue 11): the businesses a company pays through bill pay. Reference data
 * every member mirrors (the shared `refs` collection, visibility `business`): a bill, a spend
 * request or a card transaction names its vendor, and an employee picking one offline needs the
 * name list. What a member may not see is never in the doc: the bank account travels masked
 * (last four digits of account and routing number); the full numbers are stored encrypted on the
 * server and read only through the `sensitive`-scope reveal call.
 *
 * Contacts live inside the vendor doc (as Ramp and Brex show them: on the vendor's page), but are
 * rows of their own on the server, each with its own id, so one can be edited or removed.
 */
const VENDOR_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export const vendorStatusSchema = z.enum(VENDOR_STATUSES);
export type VendorStatus = z.infer<typeof vendorStatusSchema>;

export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export const bankAccountTypeSchema = z.enum(BANK_ACCOUNT_TYPES);

/** ISO 3166-1 alpha-2, upper case (the caller's 'us' is refused, not guessed). */
const countryCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code');

export const vendorAddressSchema = z.object({
  line1: z.string().trim().min(1).max(200),
  line2: z.string().trim().max(200).nullable().default(null),
  city: z.string().trim().min(1).max(100),
  /** Required when `country` is US (PAYEE_1007, schema/vendor-rules.ts); a US state is its 2-letter code. */
  state: z.string().trim().min(1).max(100).nullable().default(null),
  postal_code: z.string().trim().min(1).max(20),
  country: countryCodeSchema,
});
export type VendorAddress = z.infer<typeof vendorAddressSchema>;

const vendorContactSchema = z.object({
  id: uuid,
  name: z.string().min(1).max(200),
  email: z.email().max(320).nullable(),
  phone: z.string().max(40).nullable(),
});
export type VendorContact = z.infer<typeof vendorContactSchema>;

/**
 * The bank account as everyone sees it: never the numbers, only their last four digits.
 * `verified_at` (issue 25): when the server validated the details as it stored them
 * (schema/vendor-rules.ts `bankAccountVerification`); null: not verified, so no payment is sent to
 * it (`vendorPaymentCheck`). The account is a US one (ABA routing), paid by ACH in USD.
 */
const maskedBankAccountSchema = z.object({
  last_four: z.string().regex(/^\d{4}$/),
  routing_last_four: z.string().regex(/^\d{4}$/),
  account_type: bankAccountTypeSchema,
  verified_at: isoDateTime.nullable().default(null),
});
export type MaskedBankAccount = z.infer<typeof maskedBankAccountSchema>;

/**
 * Issue 28 (payee policy): while the business's `payee` approval policy is saved (version >= 1), a
 * new vendor (created or uploaded) and a new bank account on a vendor wait for an approval
 * (object_type 'payee'). PENDING while it runs, REJECTED with the reason when refused: either way
 * bills to the vendor may be created but not paid (BILL_PAY_7102). The last approval clears it
 * (null); a new bank account asks again. null: nothing waits, or the business has no payee policy.
 */
export const PAYEE_CHANGES = ['NEW_VENDOR', 'BANK_ACCOUNT'] as const;
export const payeeApprovalSchema = z.object({
  status: z.enum(['PENDING', 'REJECTED']),
  change: z.enum(PAYEE_CHANGES),
  requested_by: uuid,
  requested_at: isoDateTime,
  reason: z.string().max(2000).nullable().default(null),
  decided_by: uuid.nullable().default(null),
});
export type PayeeApproval = z.infer<typeof payeeApprovalSchema>;

/**
 * Issue 31, the vendor network (D9): null when the vendor was never invited (or declined). INVITED
 * while the mailed invite waits; ACTIVE once the vendor joined. `verified_fields` are the details the
 * vendor itself filled or confirmed on this payer's vendor ("Verified by vendor", `verified_at` the
 * last); `pending_edit_proposal_id` a change of a value the payer holds, waiting for the payer.
 */
export const NETWORK_VERIFIED_FIELDS = ['address', 'bank', 'tin'] as const;
export const vendorNetworkSchema = z.object({
  status: z.enum(['INVITED', 'ACTIVE']),
  verified_at: isoDateTime.nullable(),
  verified_fields: z.array(z.enum(NETWORK_VERIFIED_FIELDS)),
  pending_edit_proposal_id: uuid.nullable(),
});
export type VendorNetwork = z.infer<typeof vendorNetworkSchema>;

export const vendorSchema = z.object({
  id: uuid,
  name: z.string().min(1).max(200),
  email: z.email().max(320).nullable(),
  phone: z.string().max(40).nullable(),
  address: vendorAddressSchema.nullable(),
  /** The coding a bill of this vendor starts from. */
  default_gl_account_id: uuid.nullable(),
  default_department_id: uuid.nullable(),
  bank_account: maskedBankAccountSchema.nullable(),
  status: vendorStatusSchema,
  /** Oldest first. */
  contacts: z.array(vendorContactSchema).default([]),
  /** Issue 28: new payee details waiting for (or refused by) the payee policy; see payeeApprovalSchema. */
  payee_approval: payeeApprovalSchema.nullable().default(null),
  /** Issue 31: see vendorNetworkSchema. */
  network: vendorNetworkSchema.nullable().default(null),
  ...mirroredFields,
});
export type Vendor = z.infer<typeof vendorSchema>;

/** The doc every member mirrors carries only the account's last digits and type. */
const VENDOR_BANK_ACCOUNT_SQL = `CASE WHEN r.bank_account_type IS NULL THEN NULL ELSE jsonb_build_object(
      'last_four', r.bank_account_last_four, 'routing_last_four', r.bank_routing_last_four, 'account_type', r.bank_account_type,
      'verified_at', ll_iso(r.bank_verified_at)) END`;

/** A vendor's contacts, oldest first (an index lookup on vendor_contacts_vendor). */
const VENDOR_CONTACTS_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object('id', vc.id, 'name', vc.name, 'email', vc.email, 'phone', vc.phone)
      ORDER BY vc.created_at, vc.id), '[]'::jsonb) FROM vendor_contacts vc WHERE vc.vendor_id = r.id)`;

/** Issue 31 (migration 070): the payer's link to the network and its one pending edit proposal. */
const VENDOR_NETWORK_SQL = `(SELECT jsonb_build_object('status', l.status, 'verified_at', ll_iso(l.verified_at),
      'verified_fields', to_jsonb(l.verified_fields),
      'pending_edit_proposal_id', (SELECT p.id FROM vendor_edit_proposals p WHERE p.vendor_id = r.id AND p.status = 'PENDING'))
      FROM network_vendor_links l WHERE l.vendor_id = r.id AND l.status IN ('INVITED', 'ACTIVE'))`;

/** Table `vendors` (migration 013): never the bank ciphertext, only its last digits. */
export const vendorEntity = defineReference({
  name: 'vendors', schema: vendorSchema, visibility: 'business', searchText: ['name'],
  // payee_approval: migration 049; rows mirrored before it read as nothing waiting.
  columns: { bank_account: { sql: VENDOR_BANK_ACCOUNT_SQL }, contacts: { sql: VENDOR_CONTACTS_SQL }, payee_approval: { missing: 'null' },
    network: { sql: VENDOR_NETWORK_SQL, missing: 'null' } },
});
