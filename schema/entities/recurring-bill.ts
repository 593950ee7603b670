import { z } from 'zod';
import { serverRecordFields, uuid } from './common.ts';
import { billLineInputSchema, MAX_BILL_AMOUNT, MAX_BILL_LINES, MAX_BILL_MEMO_LENGTH } from './bill.ts';
import { currencyCodeSchema, knownCurrencySchema } from '../money.ts';
import { recurringIntervalSchema } from '../recurring-bills.ts';

/**
 * Recurring bill templates (issue 11 §7 `/bill-pay/recurring-bills`): a vendor's bill that
 * repeats (rent, a subscription). A server job makes one bill per period through the same path
 * as POST /bill-pay; the period math is schema/recurring-bills.ts. Server-only (not mirrored):
 * the bills it makes are mirrored like any other.
 */
const RECURRING_BILL_STATUSES = ['ACTIVE', 'PAUSED'] as const;
const recurringBillStatusSchema = z.enum(RECURRING_BILL_STATUSES);

export const MAX_INVOICE_PATTERN_LENGTH = 48;
export const MAX_DAYS_UNTIL_DUE = 365;
export const DEFAULT_INVOICE_PATTERN = '{YYYY}-{MM}-{DD}';

/** A template line: a bill line without a vendor credit (a credit is applied to one bill, not every period's). */
export const templateLineSchema = billLineInputSchema.omit({ vendor_credit_id: true, location_id: true, tracking: true });
export type TemplateLine = z.infer<typeof templateLineSchema>;

const isoDate = z.iso.date();

export const recurringBillTemplateSchema = z.object({
  id: uuid, // recurring_bill_template_id
  business_id: uuid,
  vendor_id: uuid,
  currency: currencyCodeSchema,
  line_items: z.array(templateLineSchema),
  /** The lines' sum: each period's bill amount. */
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT),
  memo: z.string().nullable(),
  entity_id: uuid.nullable(),
  interval: recurringIntervalSchema,
  day_of_month: z.number().int().min(1).max(31).nullable(),
  day_of_week: z.number().int().min(1).max(7).nullable(),
  start_date: isoDate,
  end_date: isoDate.nullable(),
  max_occurrences: z.number().int().positive().nullable(),
  /** Tokens {YYYY} {YY} {MM} {DD} {Q} {N}: `invoiceNumberFor` in schema/recurring-bills.ts. */
  invoice_number_pattern: z.string(),
  days_until_due: z.number().int().min(0).max(MAX_DAYS_UNTIL_DUE),
  /** Generated bills go for approval at once (PENDING_APPROVAL, the bill policy's chain) or stay drafts. */
  submit_for_approval: z.boolean(),
  status: recurringBillStatusSchema,
  /** Bills made so far; the latest period made; the next period's start (null: the schedule ended). */
  generated_count: z.number().int().nonnegative(),
  last_period_start: isoDate.nullable(),
  next_period_start: isoDate.nullable(),
  /** Why the last period could not be billed (its vendor was deleted…); null after a success. */
  last_error: z.string().nullable(),
  ...serverRecordFields,
});
export type RecurringBillTemplate = z.infer<typeof recurringBillTemplateSchema>;

export const recurringBillCreateSchema = z.object({
  vendor_id: uuid,
  currency: knownCurrencySchema,
  line_items: z.array(templateLineSchema).max(MAX_BILL_LINES),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).optional(),
  entity_id: uuid.optional(),
  interval: recurringIntervalSchema,
  day_of_month: z.number().int().min(1).max(31).optional(),
  day_of_week: z.number().int().min(1).max(7).optional(),
  start_date: isoDate,
  end_date: isoDate.optional(),
  max_occurrences: z.number().int().min(1).max(1000).optional(),
  invoice_number_pattern: z.string().trim().min(1).max(MAX_INVOICE_PATTERN_LENGTH).default(DEFAULT_INVOICE_PATTERN),
  days_until_due: z.number().int().min(0).max(MAX_DAYS_UNTIL_DUE).default(30),
  submit_for_approval: z.boolean().default(false),
  status: recurringBillStatusSchema.default('ACTIVE'),
});
export type RecurringBillCreate = z.infer<typeof recurringBillCreateSchema>;

/** Any create field; null clears an optional one. A schedule change or a resume bills from today on. */
export const recurringBillPatchSchema = z.object({
  vendor_id: uuid.optional(),
  currency: knownCurrencySchema.optional(),
  line_items: z.array(templateLineSchema).max(MAX_BILL_LINES).optional(),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable().optional(),
  entity_id: uuid.nullable().optional(),
  interval: recurringIntervalSchema.optional(),
  day_of_month: z.number().int().min(1).max(31).nullable().optional(),
  day_of_week: z.number().int().min(1).max(7).nullable().optional(),
  start_date: isoDate.optional(),
  end_date: isoDate.nullable().optional(),
  max_occurrences: z.number().int().min(1).max(1000).nullable().optional(),
  invoice_number_pattern: z.string().trim().min(1).max(MAX_INVOICE_PATTERN_LENGTH).optional(),
  days_until_due: z.number().int().min(0).max(MAX_DAYS_UNTIL_DUE).optional(),
  submit_for_approval: z.boolean().optional(),
  status: recurringBillStatusSchema.optional(),
});
export type RecurringBillPatch = z.infer<typeof recurringBillPatchSchema>;
