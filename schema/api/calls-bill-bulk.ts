import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { billBulkResultSchema } from './calls-bills.ts';
import { MAX_BILL_AMOUNT, MAX_BILL_MEMO_LENGTH } from '../entities/bill.ts';
import { paymentRailSchema } from '../payment-rails.ts';

/**
 * §7 bill bulk actions under /bill-pay/bulk-actions/ besides pay-now (calls-bills.ts), issue 11.
 * Bill managers only (403 before any lookup). Each answers `results` in the order asked, one per
 * bill: `{id, ok: true, bill}` or `{id, ok: false, error_v2}`. Each bill is changed all or
 * nothing on its own (a refusal leaves it untouched and the others go on), as pay-now and the
 * reimbursement bulk calls do. At most 50 bills (BULK_BILL_LIMIT, said in words by
 * checkBulkBills; the schema's 1,000 only bounds the payload), none twice; another business's
 * bill is "not found" in its place; a status the action does not start from is refused naming it
 * (schema/bill-rules.ts BILL_BULK_ACTIONS). A problem with the shared value (a date that is no
 * calendar date, a payment date in the past, another business's entity or tracking category)
 * refuses the whole call.
 */
const scopes = { scopes: ['default'] } as const;
const BULK = '/v1/auth/bill-pay/bulk-actions';
const isoDate = z.iso.date();
const billIdsSchema = z.array(z.uuid()).min(1).max(1000);
const ids = { bill_ids: billIdsSchema };

export const bulkBillResponseSchema = z.object({ results: z.array(billBulkResultSchema) });
/** remind-next-approvers' item also says who was mailed (the open step's approvers not reminded within the hour). */
export const remindResponseSchema = z.object({
  results: z.array(billBulkResultSchema.extend({ reminded_user_ids: z.array(z.uuid()).optional() })),
});

const bulk = <I extends string, B extends z.ZodType>(id: I, method: 'PATCH' | 'POST', name: string, body: B) =>
  defineCall({ id, method, path: `${BULK}/${name}`, auth: scopes, body, response: bulkBillResponseSchema });

/** Unpaid bills (editDates); the new due date must not be before each bill's invoice date. */
export const bulkDueDate = bulk('bills.bulk.dueDate', 'PATCH', 'due-date', z.object({ ...ids, due_date: isoDate }));
/** Unpaid bills (editDates); the new invoice date must not be after each bill's due date. */
export const bulkInvoiceDate = bulk('bills.bulk.invoiceDate', 'PATCH', 'invoice-date', z.object({ ...ids, invoice_date: isoDate }));
/** The paying entity (null: the business itself); not once a payment is scheduled (editEntity). */
export const bulkEntity = bulk('bills.bulk.entity', 'PATCH', 'entity', z.object({ ...ids, entity_id: z.uuid().nullable() }));
/** Any bill not canceled (editMemo); null clears. */
export const bulkMemo = bulk('bills.bulk.memo', 'PATCH', 'memo', z.object({ ...ids, memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable() }));
/** Schedules approved (or reschedules scheduled) bills on a day not in the past (UTC); `rail` (issue 30) as pay-now's. */
export const bulkPaymentDate = bulk('bills.bulk.paymentDate', 'PATCH', 'payment-date', z.object({
  ...ids, payment_date: isoDate, rail: paymentRailSchema.optional(),
}));
/** Every line of each bill gets `option_id` for the category (null removes the category); editCoding. */
export const bulkTrackingCategory = bulk('bills.bulk.trackingCategory', 'PATCH', 'tracking-category', z.object({
  ...ids, tracking_category_id: z.uuid(), option_id: z.uuid().nullable(),
}));
/** Unpaid bills → CANCELED; a bill awaiting approval has its open approval canceled with it. */
export const bulkCancel = bulk('bills.bulk.cancel', 'POST', 'cancel', z.object(ids));
/**
 * New totals, per bill (drafts and rejected bills: editPayable). A bill's amount is its lines' sum,
 * so only a bill of one ordinary line takes a new amount (the line's); others are refused.
 */
export const bulkAmount = defineCall({
  id: 'bills.bulk.amount', method: 'POST', path: `${BULK}/amount`, auth: scopes,
  body: z.object({
    bills: z.array(z.object({ bill_id: z.uuid(), amount: z.number().int().positive().max(MAX_BILL_AMOUNT) })).min(1).max(1000),
  }),
  response: bulkBillResponseSchema,
});
/** Paid outside Ledgerline (as mark-bill-as-paid, per bill); `payment_date` defaults to today. */
export const bulkMarkPaid = bulk('bills.bulk.markPaid', 'POST', 'mark-bills-as-paid', z.object({ ...ids, payment_date: isoDate.optional() }));
/** PAID → RECONCILED. */
export const bulkMarkReconciled = bulk('bills.bulk.markReconciled', 'POST', 'mark-bills-as-reconciled', z.object(ids));
/** PAYMENT_FAILED → a new attempt (a new payment key) through the simulated ledger, which settles at once: PAID. */
export const bulkRetryPayment = bulk('bills.bulk.retryPayment', 'POST', 'retry-payment', z.object(ids));
/**
 * An approved (or later) bill not yet synced to accounting: a sync commit to the connected provider
 * carrying that bill alone (issue 12's commit). Refused in its place: already synced
 * (ACCOUNTING_7301), no provider connected (ACCOUNTING_7304), not takeable yet, e.g. an uncoded
 * line (ACCOUNTING_7303), a commit running (ACCOUNTING_7302), any other status named.
 */
export const bulkRetryAccountingSync = bulk('bills.bulk.retryAccountingSync', 'POST', 'retry-accounting-sync', z.object(ids));
/** Bills awaiting approval: mails the open step's approvers (each at most once an hour per approval). */
export const bulkRemindApprovers = defineCall({
  id: 'bills.bulk.remindNextApprovers', method: 'POST', path: `${BULK}/remind-next-approvers`, auth: scopes,
  body: z.object(ids), response: remindResponseSchema,
});

export const BILL_BULK_CALLS = [
  bulkDueDate, bulkInvoiceDate, bulkEntity, bulkMemo, bulkPaymentDate, bulkTrackingCategory, bulkCancel, bulkAmount, bulkMarkPaid,
  bulkMarkReconciled, bulkRetryPayment, bulkRetryAccountingSync, bulkRemindApprovers,
] as const;
