import { z } from 'zod';
import { serverRecordFields, uuid } from './common.ts';
import { MAX_BILL_AMOUNT, MAX_BILL_MEMO_LENGTH, MAX_INVOICE_NUMBER_LENGTH } from './bill.ts';
import { currencyCodeSchema, knownCurrencySchema } from '../money.ts';

/**
 * Vendor credits (issue 11 §7 `/bill-pay/vendor-credits`): money a vendor owes the business (a
 * credit note), taken off later bills of that vendor by a **credit line** (a bill line with
 * `vendor_credit_id` and a negative amount, schema/entities/bill.ts). `applied` counts the credit
 * lines of bills that are not canceled or deleted, so canceling a bill gives its credit back.
 * Server-only (not mirrored).
 */
export const vendorCreditSchema = z.object({
  id: uuid,
  business_id: uuid,
  vendor_id: uuid,
  currency: currencyCodeSchema,
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT),
  /** Applied on live bills, and what is left: `remaining = amount − applied`, never below 0. */
  applied: z.number().int().nonnegative(),
  remaining: z.number().int().nonnegative(),
  credit_note_number: z.string(),
  credit_date: z.iso.date(),
  memo: z.string().nullable(),
  ...serverRecordFields,
});
export type VendorCredit = z.infer<typeof vendorCreditSchema>;

export const vendorCreditCreateSchema = z.object({
  vendor_id: uuid,
  currency: knownCurrencySchema,
  amount: z.number().int().min(1).max(MAX_BILL_AMOUNT),
  credit_note_number: z.string().trim().min(1).max(MAX_INVOICE_NUMBER_LENGTH),
  credit_date: z.iso.date(),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).optional(),
});
export type VendorCreditCreate = z.infer<typeof vendorCreditCreateSchema>;
