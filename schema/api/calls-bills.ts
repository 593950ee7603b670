import { z } from 'zod';
import { defineCall } from './define-call.ts';
import {
  billCreateSchema, billPatchSchema, billPaymentStatusSchema, billSchema, billStatusSchema,
} from '../entities/bill.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';
import { paymentRailSchema } from '../payment-rails.ts';

/**
 * Bill pay (issue 11 §7). Only bill managers (§6 "manage bill pay accounting": admin, AP clerk,
 * bookkeeper; `mayManageBills`) read or write bills: anyone else is 403 before any lookup, and
 * another business's bill or vendor is 404. Field problems answer REQUEST_7001 with validateBill's
 * messages by field; a move outside the status machine is REQUEST_7001 naming the bill's status.
 *
 * Payments (issue 25): money only moves where it can. Pay-now, scheduling and retry refuse a bill
 * whose vendor has no verified bank account, or no payment method for the bill's currency (ACH:
 * USD), per bill with BILL_PAY_7101 naming the vendor (schema/vendor-rules.ts vendorPaymentCheck).
 * Pay-now sends one attempt PENDING (keyed paymentKey(bill, attempt)) due on its settlement day
 * (DEFAULT_SETTLEMENT_DAYS bank business days); the bill is SCHEDULED until the server's
 * settlement job settles it and makes it PAID on that day.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/bill-pay';
const billParams = z.object({ bill_uuid: z.uuid() });
const isoDate = z.iso.date();

const billListQuerySchema = pageQuerySchema.extend({
  status: billStatusSchema.optional(),
  vendor_id: z.uuid().optional(),
});

const duplicateCheckBodySchema = z.object({ vendor_id: z.uuid(), invoice_number: z.string().max(200) });
const duplicateCheckResponseSchema = z.object({ is_duplicate: z.boolean(), bills: z.array(billSchema) });

/** ACH settles in 2 bank business days unless told otherwise. */
export const DEFAULT_SETTLEMENT_DAYS = 2;
const settlementBodySchema = z.object({
  payment_date: isoDate,
  business_days: z.number().int().min(0).max(30).default(DEFAULT_SETTLEMENT_DAYS),
});

export const billPaymentRowSchema = z.object({
  id: z.uuid(), bill_id: z.uuid(), amount: z.number().int(), status: billPaymentStatusSchema, attempt: z.number().int(),
  created_at: z.string(),
  /** The bank business day it settles (or settled) on; null for attempts recorded before settlement days existed. */
  settles_on: isoDate.nullable().optional(),
  settled_at: z.string().nullable().optional(),
  /** Issue 30: how the attempt reached the vendor (schema/payment-rails.ts); ACH for every attempt made before rails. */
  rail: paymentRailSchema,
  /** A check's number (per business), null on other rails. */
  check_number: z.number().int().positive().nullable(),
  mailed_at: z.string().nullable(),
  cleared_at: z.string().nullable(),
  /** A check voided before it cleared (the attempt is REVERSED, its money back). */
  voided_at: z.string().nullable(),
  /** A wire's UETR (its MT103's {121:}) and the fee the business paid for it, minor units. */
  uetr: z.uuid().nullable(),
  wire_fee: z.number().int().nullable(),
});
export type BillPaymentRow = z.infer<typeof billPaymentRowSchema>;
const billPaymentsQuerySchema = z.object({ bill_id: z.uuid() });

/** `rail` (issue 30): every bill of the request on it; absent, each vendor's default (ACH with a bank account, else a check). */
const payNowBodySchema = z.object({ bill_ids: z.array(z.uuid()).min(1).max(1000), rail: paymentRailSchema.optional() });
/** One bill's answer: the paid bill, or the refusal (another bill of the request still goes on). */
export const billBulkResultSchema = z.object({
  id: z.uuid(),
  ok: z.boolean(),
  bill: billSchema.optional(),
  error_v2: z.object({ error_code: z.string(), message: z.string() }).passthrough().optional(),
});
const payNowResponseSchema = z.object({ results: z.array(billBulkResultSchema) });

export const listBills = defineCall({
  id: 'bills.list', method: 'GET', path: BASE, auth: scopes, retry: 'paged',
  query: billListQuerySchema, response: paginatedSchema(billSchema),
});
/** A bill's payment attempts, oldest first (registration order puts the static path before `:bill_uuid`). */
export const listBillPayments = defineCall({
  id: 'bills.payments.list', method: 'GET', path: `${BASE}/payments`, auth: scopes,
  query: billPaymentsQuerySchema, response: z.object({ data: z.array(billPaymentRowSchema) }),
});
/** What the calls on one bill share: the scopes, the `:bill_uuid` param, the bill answered. */
const onBill = { auth: scopes, params: billParams, response: billSchema };

export const getBill = defineCall({ id: 'bills.get', method: 'GET', path: `${BASE}/:bill_uuid`, ...onBill });
export const createBill = defineCall({
  id: 'bills.create', method: 'POST', path: BASE, auth: scopes, body: billCreateSchema, response: billSchema,
});
export const updateBill = defineCall({ id: 'bills.update', method: 'PATCH', path: `${BASE}/:bill_uuid`, ...onBill, body: billPatchSchema });
/** Drafts only (a tombstone); anything further along is canceled instead. */
export const deleteBill = defineCall({ id: 'bills.delete', method: 'DELETE', path: `${BASE}/:bill_uuid`, ...onBill });
export const checkDuplicateInvoice = defineCall({
  id: 'bills.checkDuplicateInvoice', method: 'POST', path: `${BASE}/check-duplicate-invoice-number`, auth: scopes,
  body: duplicateCheckBodySchema, response: duplicateCheckResponseSchema,
});
export const expectedSettlement = defineCall({
  id: 'bills.expectedSettlementDate', method: 'POST', path: `${BASE}/get-expected-settlement-date`, auth: scopes,
  body: settlementBodySchema, response: z.object({ expected_settlement_date: isoDate }),
});
/** Paid outside Ledgerline: no money moves here, the bill records it (`paid_manually`). */
export const markBillPaid = defineCall({
  id: 'bills.markPaid', method: 'POST', path: `${BASE}/mark-bill-as-paid/:bill_uuid`, auth: scopes, params: billParams,
  body: z.object({ payment_date: isoDate.optional() }).optional(), response: billSchema,
});
/** PAID → APPROVED; a live payment attempt becomes REVERSED. */
export const reverseBillPayment = defineCall({
  id: 'bills.reversePayment', method: 'POST', path: `${BASE}/reverse-bill-payment/:bill_uuid`, auth: scopes, params: billParams,
  body: z.object({}).optional(), response: billSchema,
});
export const payBillsNow = defineCall({
  id: 'bills.bulk.payNow', method: 'POST', path: `${BASE}/bulk-actions/pay-now`, auth: scopes,
  body: payNowBodySchema, response: payNowResponseSchema,
});

export const BILL_CALLS = [
  listBills, listBillPayments, getBill, createBill, updateBill, deleteBill, checkDuplicateInvoice, expectedSettlement,
  markBillPaid, reverseBillPayment, payBillsNow,
] as const;
