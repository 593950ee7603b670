import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { MAX_BILL_MEMO_LENGTH, MAX_BILL_LINES } from '../entities/bill.ts';
import { serverRecordFields, uuid } from '../entities/common.ts';
import {
  recurringBillCreateSchema, recurringBillPatchSchema, recurringBillTemplateSchema, templateLineSchema,
} from '../entities/recurring-bill.ts';
import { vendorCreditCreateSchema, vendorCreditSchema } from '../entities/vendor-credit.ts';
import { currencyCodeSchema, knownCurrencySchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Bill pay extras (issue 11 §7): recurring bill templates, vendor credits and bill templates,
 * under /v1/auth/bill-pay. Like every bill call, only §6 bill-pay managers (admin, AP clerk,
 * bookkeeper) reach them (403 before any lookup); another business's template, credit or vendor
 * is 404; field problems are REQUEST_7001 naming the field.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/bill-pay';

// --- Recurring bill templates ---------------------------------------------------------------------

const recurringParams = z.object({ recurring_bill_template_id: z.uuid() });

export const listRecurringBills = defineCall({
  id: 'bills.recurring.list', method: 'GET', path: `${BASE}/recurring-bills`, auth: scopes, retry: 'paged',
  query: pageQuerySchema, response: paginatedSchema(recurringBillTemplateSchema),
});
export const createRecurringBill = defineCall({
  id: 'bills.recurring.create', method: 'POST', path: `${BASE}/recurring-bills`, auth: scopes,
  body: recurringBillCreateSchema, response: recurringBillTemplateSchema,
});
/** `status: 'PAUSED'` pauses, `'ACTIVE'` resumes (periods missed while paused are not billed). */
export const updateRecurringBill = defineCall({
  id: 'bills.recurring.update', method: 'PATCH', path: `${BASE}/recurring-bills/:recurring_bill_template_id`, auth: scopes,
  params: recurringParams, body: recurringBillPatchSchema, response: recurringBillTemplateSchema,
});
/** A tombstone: the bills it already made stay as they are. */
export const deleteRecurringBill = defineCall({
  id: 'bills.recurring.delete', method: 'DELETE', path: `${BASE}/recurring-bills/:recurring_bill_template_id`, auth: scopes,
  params: recurringParams, response: recurringBillTemplateSchema,
});

// --- Vendor credits ---------------------------------------------------------------------------------

const vendorCreditListQuerySchema = pageQuerySchema.extend({ vendor_id: z.uuid().optional() });

export const listVendorCredits = defineCall({
  id: 'bills.vendorCredits.list', method: 'GET', path: `${BASE}/vendor-credits`, auth: scopes, retry: 'paged',
  query: vendorCreditListQuerySchema, response: paginatedSchema(vendorCreditSchema),
});
export const createVendorCredit = defineCall({
  id: 'bills.vendorCredits.create', method: 'POST', path: `${BASE}/vendor-credits`, auth: scopes,
  body: vendorCreditCreateSchema, response: vendorCreditSchema,
});
/** Refused (REQUEST_7001) once any of it is applied to a live bill; a tombstone otherwise. */
export const deleteVendorCredit = defineCall({
  id: 'bills.vendorCredits.delete', method: 'DELETE', path: `${BASE}/vendor-credits/:vendor_credit_uuid`, auth: scopes,
  params: z.object({ vendor_credit_uuid: z.uuid() }), response: vendorCreditSchema,
});

// --- Bill templates -------------------------------------------------------------------------------

/** A saved vendor + lines + memo the new-bill form starts from (no number, no dates). */
export const billTemplateSchema = z.object({
  id: uuid,
  business_id: uuid,
  name: z.string(),
  vendor_id: uuid,
  currency: currencyCodeSchema,
  line_items: z.array(templateLineSchema),
  memo: z.string().nullable(),
  ...serverRecordFields,
});
export type BillTemplate = z.infer<typeof billTemplateSchema>;

export const billTemplateCreateSchema = z.object({
  name: z.string().trim().min(1).max(200),
  vendor_id: uuid,
  currency: knownCurrencySchema,
  line_items: z.array(templateLineSchema).min(1).max(MAX_BILL_LINES),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).optional(),
});
export type BillTemplateCreate = z.infer<typeof billTemplateCreateSchema>;

export const listBillTemplates = defineCall({
  id: 'bills.templates.list', method: 'GET', path: `${BASE}/bill-templates`, auth: scopes, retry: 'paged',
  query: pageQuerySchema, response: paginatedSchema(billTemplateSchema),
});
export const createBillTemplate = defineCall({
  id: 'bills.templates.create', method: 'POST', path: `${BASE}/bill-templates`, auth: scopes,
  body: billTemplateCreateSchema, response: billTemplateSchema,
});
export const deleteBillTemplate = defineCall({
  id: 'bills.templates.delete', method: 'DELETE', path: `${BASE}/bill-template/:bill_template_uuid`, auth: scopes,
  params: z.object({ bill_template_uuid: z.uuid() }), response: billTemplateSchema,
});

const RECURRING_BILL_CALLS = [listRecurringBills, createRecurringBill, updateRecurringBill, deleteRecurringBill] as const;
const VENDOR_CREDIT_CALLS = [listVendorCredits, createVendorCredit, deleteVendorCredit] as const;
const BILL_TEMPLATE_CALLS = [listBillTemplates, createBillTemplate, deleteBillTemplate] as const;
export const BILL_EXTRA_CALLS = [...RECURRING_BILL_CALLS, ...VENDOR_CREDIT_CALLS, ...BILL_TEMPLATE_CALLS] as const;
