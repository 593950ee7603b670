import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  bankAccountTypeSchema, vendorAddressSchema, vendorSchema, vendorStatusSchema,
} from '../entities/vendor.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { isValidAccountNumber, isValidRoutingNumber } from '../vendor-rules.ts';

/**
 * Vendors (payees; issue 11, spec §7 "Vendors and vendor network"). Every member reads them
 * (mirrored as reference data: bills, spend requests and card transactions name their vendor);
 * §6 "manage bill pay accounting" (admin, AP clerk with AP_ACCESS, or bookkeeper) changes them,
 * and anyone else is refused with 403 before any lookup. Another business's payee or contact is
 * 404. The bank account numbers are stored encrypted; every answer shows them masked, except the
 * `sensitive`-scope reveal. Setting them needs `sensitive` too: redirecting a vendor's payments is
 * the classic payment fraud, so it takes the same step-up as reading them.
 */
const scopes = { scopes: ['default'] } as const;
const sensitive = { scopes: ['sensitive'] } as const;

const MAX_VENDOR_CONTACTS = 50;
export const MAX_BULK_VENDOR_ROWS = 500;
export const MAX_MERGED_PAYEES = 50;

const name = z.string().trim().min(1).max(200);
const email = z.email().max(320);
const phone = z.string().trim().min(1).max(40).regex(/^[+0-9 ().-]+$/, 'must be a phone number');

export const vendorContactBodySchema = z.object({ name, email: email.nullable().default(null), phone: phone.nullable().default(null) });
export const vendorContactPatchSchema = z.object({ name: name.optional(), email: email.nullable().optional(), phone: phone.nullable().optional() });

export const vendorCreateBodySchema = z.object({
  name,
  email: email.nullable().default(null),
  phone: phone.nullable().default(null),
  address: vendorAddressSchema.nullable().default(null),
  default_gl_account_id: z.uuid().nullable().default(null),
  default_department_id: z.uuid().nullable().default(null),
  contacts: z.array(vendorContactBodySchema).max(MAX_VENDOR_CONTACTS).default([]),
});
export type VendorCreateBody = z.output<typeof vendorCreateBodySchema>;

/** PATCH: the keys present change; `status` archives and unarchives. */
export const vendorPatchBodySchema = z.object({
  name: name.optional(),
  email: email.nullable().optional(),
  phone: phone.nullable().optional(),
  address: vendorAddressSchema.nullable().optional(),
  default_gl_account_id: z.uuid().nullable().optional(),
  default_department_id: z.uuid().nullable().optional(),
  status: vendorStatusSchema.optional(),
});
export type VendorPatchBody = z.output<typeof vendorPatchBodySchema>;

export const bankAccountBodySchema = z.object({
  routing_number: z.string().refine(isValidRoutingNumber, 'must be a valid 9-digit ABA routing number'),
  account_number: z.string().refine(isValidAccountNumber, 'must be 4 to 17 digits'),
  account_type: bankAccountTypeSchema,
});
export type BankAccountBody = z.output<typeof bankAccountBodySchema>;

export const vendorListQuerySchema = pageQuerySchema.extend({
  /** Matches the name (and contacts' names and emails), case-insensitively, anywhere in it. */
  q: z.string().trim().max(200).optional(),
  /** Default: active vendors only (what a picker offers). */
  status: z.enum([...vendorStatusSchema.options, 'ALL']).default('ACTIVE'),
});

const mergePayeesBodySchema = z.object({
  survivor_payee_id: z.uuid(),
  merged_payee_ids: z.array(z.uuid()).min(1).max(MAX_MERGED_PAYEES),
});

/**
 * One spreadsheet row, columns as in the template (every cell a string, blank cells may be
 * omitted). A client sends either the rows it parsed (`rows`) or the CSV file's text (`csv`),
 * which the server parses with papaparse (`vendorRowsFromCsv`, server/domain/vendor-csv.ts).
 */
const cell = z.string().max(500).optional();
const bulkVendorRowSchema = z.object({
  name: cell, email: cell, phone: cell, address_line1: cell, address_line2: cell, city: cell, state: cell,
  postal_code: cell, country: cell,
});
export type BulkVendorRow = z.output<typeof bulkVendorRowSchema>;
/** A CSV of MAX_BULK_VENDOR_ROWS rows of long cells stays well under this. */
export const MAX_VENDOR_CSV_CHARS = 1_000_000;
/** Exactly one of `rows` and `csv` (checked by the handler, which names the field). */
const bulkUploadBodySchema = z.object({
  rows: z.array(bulkVendorRowSchema).min(1).max(MAX_BULK_VENDOR_ROWS).optional(),
  csv: z.string().min(1).max(MAX_VENDOR_CSV_CHARS).optional(),
});

/**
 * Per row, 1-based as a spreadsheet numbers its data rows: `ok` with the new vendor's id, or the
 * row's field messages. An upload with any bad row creates nothing (`created: 0`; the good rows
 * answer ok without an id), so fixing the file and uploading it again never duplicates a vendor.
 */
export const bulkRowResultSchema = z.object({
  row: z.number().int().positive(),
  ok: z.boolean(),
  id: z.uuid().optional(),
  errors: z.record(z.string(), z.string()).optional(),
});
const bulkUploadResponseSchema = z.object({ created: z.number().int().nonnegative(), results: z.array(bulkRowResultSchema) });

export const revealedBankAccountSchema = z.object({
  routing_number: z.string(), account_number: z.string(), account_type: bankAccountTypeSchema,
});

const BASE = '/v1/auth/vendors';
const payeeParams = z.object({ payee_uuid: z.uuid() });
const contactParams = z.object({ payee_uuid: z.uuid(), contact_uuid: z.uuid() });

export const listVendors = defineCall({
  id: 'vendors.list', method: 'GET', path: BASE, auth: scopes, retry: 'paged',
  query: vendorListQuerySchema, response: paginatedSchema(vendorSchema),
});
/** What the calls on one vendor share: the scopes, the `:payee_uuid` param, the vendor answered. */
const onVendor = { auth: scopes, params: payeeParams, response: vendorSchema };

export const getVendor = defineCall({ id: 'vendors.get', method: 'GET', path: `${BASE}/:payee_uuid`, ...onVendor });
export const createVendor = defineCall({
  id: 'vendors.create', method: 'POST', path: BASE, auth: scopes, body: vendorCreateBodySchema, response: vendorSchema,
});
export const updateVendor = defineCall({
  id: 'vendors.update', method: 'PATCH', path: `${BASE}/:payee_uuid`, ...onVendor, body: vendorPatchBodySchema,
});
/** A tombstone: mirrors drop it; use PATCH status ARCHIVED to keep it for history. */
export const deleteVendor = defineCall({ id: 'vendors.delete', method: 'DELETE', path: `${BASE}/:payee_uuid`, ...onVendor });
export const addVendorContact = defineCall({
  id: 'vendors.contacts.add', method: 'POST', path: `${BASE}/:payee_uuid/contacts`, ...onVendor, body: vendorContactBodySchema,
});
export const updateVendorContact = defineCall({
  id: 'vendors.contacts.update', method: 'PATCH', path: `${BASE}/:payee_uuid/contacts/:contact_uuid`, auth: scopes,
  params: contactParams, body: vendorContactPatchSchema, response: vendorSchema,
});
/** §7: DELETE contacts takes a body. All or none: an id that is not this vendor's contact is 404. */
export const deleteVendorContacts = defineCall({
  id: 'vendors.contacts.delete', method: 'DELETE', path: `${BASE}/:payee_uuid/contacts`, ...onVendor,
  body: z.object({ contact_ids: z.array(z.uuid()).min(1).max(MAX_VENDOR_CONTACTS) }),
});
export const setVendorBankAccount = defineCall({
  id: 'vendors.bankAccount.set', method: 'POST', path: `${BASE}/:payee_uuid/bank-account`, auth: sensitive,
  params: payeeParams, body: bankAccountBodySchema, response: vendorSchema,
});
export const revealVendorBankAccount = defineCall({
  id: 'vendors.bankAccount.reveal', method: 'GET', path: `${BASE}/:payee_uuid/bank-account`, auth: sensitive,
  params: payeeParams, response: revealedBankAccountSchema,
});
export const deleteVendorBankAccount = defineCall({
  id: 'vendors.bankAccount.delete', method: 'DELETE', path: `${BASE}/:payee_uuid/bank-account`, auth: scopes,
  params: payeeParams, response: vendorSchema,
});
/**
 * The merged payees become tombstones; their contacts, bills, vendor credits (with what is
 * applied), recurring and bill templates and provisional bills move to the survivor.
 */
export const mergePayees = defineCall({
  id: 'vendors.mergePayees', method: 'POST', path: `${BASE}/merge-payees`, auth: scopes,
  body: mergePayeesBodySchema, response: z.object({ vendor: vendorSchema, merged_payee_ids: z.array(z.uuid()) }),
});
export const bulkUploadVendors = defineCall({
  id: 'vendors.bulkUpload', method: 'POST', path: `${BASE}/bulk-upload`, auth: scopes,
  body: bulkUploadBodySchema, response: bulkUploadResponseSchema,
});

export const VENDOR_CALLS = [
  listVendors, getVendor, createVendor, updateVendor, deleteVendor, addVendorContact, updateVendorContact,
  deleteVendorContacts, setVendorBankAccount, revealVendorBankAccount, deleteVendorBankAccount, mergePayees, bulkUploadVendors,
] as const;


