import { z } from 'zod';
import { currencyCodeSchema, knownCurrencySchema } from '../money.ts';
import { isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineReference } from './define-entity.ts';
import { MAX_BILL_AMOUNT, MAX_BILL_MEMO_LENGTH, MAX_INVOICE_NUMBER_LENGTH } from './bill.ts';

/**
 * Issue 11 §7 provisional bills: an uploaded invoice not yet completed into a bill (Ramp's and
 * Bill.com's "bill inbox"). It holds the invoice file and whatever was read from it or typed so
 * far, every field optional; completing it creates the bill and consumes it. Bill managers see
 * them all (`bill_pay`, as bills), mirrored as reference data so the inbox opens offline.
 */
const isoDate = z.iso.date();

export const provisionalBillSchema = z.object({
  id: uuid, // provisional_bill_uuid
  /** The uploaded invoice (a receipt-store file id). */
  invoice_file_id: uuid,
  vendor_id: uuid.nullable().default(null),
  invoice_number: z.string().max(MAX_INVOICE_NUMBER_LENGTH).nullable().default(null),
  invoice_date: isoDate.nullable().default(null),
  due_date: isoDate.nullable().default(null),
  currency: currencyCodeSchema.nullable().default(null),
  /** The invoice's total as read or typed, minor units of `currency`. */
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT).nullable().default(null),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable().default(null),
  created_by: uuid,
  created_at: isoDateTime,
  ...mirroredFields,
});
export type ProvisionalBill = z.infer<typeof provisionalBillSchema>;

const fields = {
  vendor_id: uuid.nullable().optional(),
  invoice_number: z.string().trim().max(MAX_INVOICE_NUMBER_LENGTH).nullable().optional(),
  invoice_date: isoDate.nullable().optional(),
  due_date: isoDate.nullable().optional(),
  currency: knownCurrencySchema.nullable().optional(),
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT).nullable().optional(),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable().optional(),
};

/**
 * POST /bill-pay/provisional-bills: the uploaded file and anything already known. `id`: the
 * client's id (a repeat of the caller's own create answers the stored row).
 */
export const provisionalBillCreateSchema = z.object({ id: uuid.optional(), invoice_file_id: uuid, ...fields });
export type ProvisionalBillCreate = z.infer<typeof provisionalBillCreateSchema>;

/** PATCH /bill-pay/provisional-bills/{provisional_bill_uuid}: any field; null clears. */
export const provisionalBillPatchSchema = z.object(fields);
export type ProvisionalBillPatch = z.infer<typeof provisionalBillPatchSchema>;

/** Table `provisional_bills` (migration 019). */
export const provisionalBillEntity = defineReference({
  name: 'provisional_bills', schema: provisionalBillSchema, visibility: 'bill_pay', searchText: ['invoice_number', 'memo'],
});
