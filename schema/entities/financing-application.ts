import { z } from 'zod';
import { APPLICATION_STATUSES, ENTITY_TYPES } from '../application-rules.ts';
import { moneySchema } from '../money.ts';
import { isoDateTime, uuid } from './common.ts';
import { BANK_ACCOUNT_TYPES, vendorAddressSchema } from './vendor.ts';

/**
 * The financing application as its applicant sees it (issue 31, docs/design/issue-31-surfaces.md
 * §2.3): the draft per step, owners, KYC individuals (SSN as its last four only), documents with
 * page counts, bank accounts masked, status and decision. Online-only (not mirrored, D6).
 */

const isoDate = z.iso.date();
export const applicationAddressSchema = vendorAddressSchema;

export const businessDetailsSchema = z.object({
  legal_name: z.string().trim().min(1).max(200),
  dba: z.string().trim().max(200).nullable().optional(),
  entity_type: z.enum(ENTITY_TYPES),
  ein: z.string().regex(/^\d{2}-?\d{7}$/, 'must be a valid EIN'),
  incorporation_state: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter state code'),
  incorporation_date: isoDate,
  website: z.url().max(300).nullable().optional(),
  phone: z.string().regex(/^\+?[0-9 ()-]{7,20}$/, 'must be a valid phone number'),
  address: applicationAddressSchema,
});
export const financialDetailsSchema = z.object({
  annual_revenue: moneySchema,
  cash_on_hand: moneySchema,
  monthly_spend_estimate: moneySchema,
});
export const companySchema = z.object({
  industry_code: z.string().regex(/^\d{2,6}$/, 'must be a NAICS code of 2 to 6 digits'),
  description: z.string().trim().min(1).max(500),
  employee_count: z.number().int().min(1).max(1_000_000),
});
export const controlPersonSchema = z.object({
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().min(1).max(100),
  title: z.string().trim().min(1).max(100),
  email: z.email().max(320),
  is_applicant: z.boolean(),
});
export const leadershipSchema = z.object({ control_person: controlPersonSchema });
export const checkboxSchema = z.object({ certify_owners: z.literal(true), accept_terms: z.literal(true) });
export const APPLICATION_PRODUCTS = ['CARDS', 'BILL_PAY', 'REIMBURSEMENTS', 'TREASURY'] as const;
export const productsSchema = z.object({ products: z.array(z.enum(APPLICATION_PRODUCTS)).min(1).max(4) });

export const ownerInputSchema = z.object({
  id: uuid.optional(),
  kind: z.enum(['INDIVIDUAL', 'ENTITY']),
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320).nullable().optional(),
  percent_bp: z.number().int().min(0).max(10000),
});
export const kycIndividualInputSchema = z.object({
  first_name: z.string().trim().min(1).max(100),
  last_name: z.string().trim().min(1).max(100),
  dob: isoDate,
  ssn: z.string().regex(/^\d{3}-?\d{2}-?\d{4}$/, 'must be a valid SSN'),
  address: applicationAddressSchema,
  citizenship: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter ISO country code'),
});
export const bankAccountInputSchema = z.object({
  id: uuid.optional(),
  holder_name: z.string().trim().min(1).max(200),
  routing_number: z.string().regex(/^\d{9}$/, 'must be a valid routing number'),
  account_number: z.string().regex(/^\d{4,17}$/, 'must be a valid account number'),
  type: z.enum(BANK_ACCOUNT_TYPES),
});

const ownerSchema = ownerInputSchema.extend({ id: uuid, email: z.string().nullable(), kyc_individual_id: uuid.nullable() });
const kycIndividualSchema = z.object({
  id: uuid,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  title: z.string().nullable(),
  dob: z.string().nullable(),
  ssn_last_four: z.string().nullable(),
  address: applicationAddressSchema.nullable(),
  citizenship: z.string().nullable(),
  is_control_person: z.boolean(),
  completed_at: isoDateTime.nullable(),
});
const documentSchema = z.object({
  id: uuid,
  kind: z.enum(['KYB', 'KYC']),
  doc_type: z.string(),
  kyc_individual_id: uuid.nullable(),
  pages: z.array(z.number().int()),
});
const bankAccountSchema = z.object({
  id: uuid,
  holder_name: z.string(),
  type: z.enum(BANK_ACCOUNT_TYPES),
  routing_last_four: z.string(),
  account_last_four: z.string(),
});
const inviteSchema = z.object({ id: uuid, email: z.string(), kyc_individual_id: uuid.nullable(), expires_at: isoDateTime });
export const decisionSchema = z.object({ outcome: z.enum(['APPROVED', 'MANUAL_REVIEW', 'REJECTED']), reasons: z.array(z.string()) });

export const financingApplicationSchema = z.object({
  id: uuid,
  status: z.enum(APPLICATION_STATUSES),
  version: z.number().int(),
  business_name: z.string().nullable(),
  current_step: z.string().nullable(),
  business_details: businessDetailsSchema.nullable(),
  financial_details: financialDetailsSchema.nullable(),
  company: companySchema.nullable(),
  leadership: leadershipSchema.nullable(),
  products: z.array(z.enum(APPLICATION_PRODUCTS)).nullable(),
  checkbox: checkboxSchema.nullable(),
  owners: z.array(ownerSchema),
  kyc_individuals: z.array(kycIndividualSchema),
  documents: z.array(documentSchema),
  bank_accounts: z.array(bankAccountSchema),
  invites: z.array(inviteSchema),
  decision: decisionSchema.nullable(),
  business_id: uuid.nullable(),
  submitted_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  /** What submitting would refuse now (APPLICATION_7002's `errors`), empty when ready. */
  missing: z.record(z.string(), z.array(z.string())),
});
export type FinancingApplication = z.infer<typeof financingApplicationSchema>;

export const documentRequestSchema = z.object({
  id: uuid,
  doc_type: z.string(),
  note: z.string(),
  status: z.enum(['OPEN', 'FULFILLED']),
  created_at: isoDateTime,
});
