import { z } from 'zod';
import { csv, isoDateTime, mirroredFields, uuid } from './common.ts';
import { defineEntity } from './define-entity.ts';
import { columnsOf } from './columns.ts';
import { ascending, listMatcher, presentIds } from './query-shapes.ts';
import { currencyCodeSchema, knownCurrencySchema } from '../money.ts';
import { MAX_LINE_QUANTITY } from './spend-request.ts';
import { poMatchSchema } from '../bill-match.ts';

/**
 * Issue 11 §7 bill pay: a vendor's invoice the business pays. The status machine, the
 * validation and the duplicate-invoice rule are in schema/bill-rules.ts; settlement dates in
 * schema/business-days.ts. Amounts are integer minor units of the bill's currency.
 */
export const BILL_STATUSES = [
  'DRAFT', 'PENDING_APPROVAL', 'APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED', 'REJECTED', 'CANCELED', 'PAYMENT_FAILED',
] as const;
export const billStatusSchema = z.enum(BILL_STATUSES);
export type BillStatus = z.infer<typeof billStatusSchema>;

const isoDate = z.iso.date();

export const MAX_INVOICE_NUMBER_LENGTH = 64;
const MAX_LINE_DESCRIPTION_LENGTH = 500;
export const MAX_BILL_MEMO_LENGTH = 2000;
export const MAX_BILL_LINES = 500;
/**
 * The largest bill, in minor units (1 billion in a two-decimal currency): anything above is a
 * typo, and it keeps the sum of 500 lines far inside Number.MAX_SAFE_INTEGER.
 */
export const MAX_BILL_AMOUNT = 100_000_000_000;

/**
 * One line of the invoice. `amount` is negative only on a **credit line**: one that applies a
 * vendor credit (`vendor_credit_id`, the credit it draws on) against this invoice. Every other
 * line is zero or more (a free item may be listed at 0). So a negative number always says where
 * the money came from, and a mistyped sign on an ordinary line is caught (bill-rules.ts).
 */
const billLineItemSchema = z.object({
  id: uuid,
  description: z.string().max(MAX_LINE_DESCRIPTION_LENGTH),
  amount: z.number().int().min(-MAX_BILL_AMOUNT).max(MAX_BILL_AMOUNT),
  gl_account_id: uuid.nullable().default(null),
  department_id: uuid.nullable().default(null),
  location_id: uuid.nullable().default(null),
  /** Accounting tracking: tracking category id → option id (as on transactions). */
  tracking: z.record(z.string(), uuid).default({}),
  vendor_credit_id: uuid.nullable().default(null),
  /**
   * Issue 28, three-way match: the line of the bill's purchase order this line bills, and how
   * many units at what unit price (minor units; `amount` = quantity × unit_price). A line naming a
   * PO line always says both; other lines may leave them null (schema/bill-match.ts).
   */
  po_line_id: uuid.nullable().default(null),
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY).nullable().default(null),
  unit_price: z.number().int().min(0).max(MAX_BILL_AMOUNT).nullable().default(null),
});
export type BillLineItem = z.infer<typeof billLineItemSchema>;

/** The other bill of a confirmed duplicate (`Bill.duplicate_of`). */
const billDuplicateSchema = z.object({
  id: uuid,
  invoice_number: z.string(),
  vendor_id: uuid,
  amount: z.number().int(),
  currency: currencyCodeSchema,
  status: billStatusSchema,
  confirmed_by: uuid.nullable(),
  confirmed_at: isoDateTime.nullable(),
});
export type BillDuplicate = z.infer<typeof billDuplicateSchema>;

/**
 * Issue 28 (vendor-payment policy): a payment asked for while the business's `vendor-payment`
 * approval policy is saved (version >= 1). Paying or scheduling an APPROVED bill then moves no
 * money: it opens an approval (object_type 'vendor-payment') and records here what was asked
 * (`method` PAY_NOW sends on approval; SCHEDULE on `pay_on`, or at approval when that day has
 * passed). PENDING while the chain runs (the bill stays APPROVED); the last approval pays it and
 * clears this; a rejection leaves REJECTED with the reason (the bill stays APPROVED and may be paid
 * again, which asks again). null: nothing asked, or the business never saved that policy.
 */
export const PAYMENT_APPROVAL_STATUSES = ['PENDING', 'REJECTED'] as const;
export const billPaymentApprovalSchema = z.object({
  status: z.enum(PAYMENT_APPROVAL_STATUSES),
  method: z.enum(['PAY_NOW', 'SCHEDULE']),
  pay_on: isoDate,
  requested_by: uuid,
  requested_at: isoDateTime,
  reason: z.string().max(2000).nullable().default(null),
  decided_by: uuid.nullable().default(null),
});
export type BillPaymentApproval = z.infer<typeof billPaymentApprovalSchema>;

export const billSchema = z.object({
  id: uuid, // bill_uuid
  vendor_id: uuid,
  /** As printed on the invoice (trimmed); duplicates are found case- and space-insensitively. */
  invoice_number: z.string().min(1).max(MAX_INVOICE_NUMBER_LENGTH),
  invoice_date: isoDate,
  due_date: isoDate,
  /** The day the payment is (to be) sent; null until the bill is scheduled or paid. */
  payment_date: isoDate.nullable().default(null),
  currency: currencyCodeSchema,
  /** The sum of `line_items` (credit lines netted), > 0. */
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT),
  line_items: z.array(billLineItemSchema).min(1).max(MAX_BILL_LINES),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable().default(null),
  status: billStatusSchema,
  /** The business entity (subsidiary) that owes and pays the bill; null: the business itself. */
  entity_id: uuid.nullable().default(null),
  /** The uploaded invoice document (a receipt-store file id). */
  invoice_file_id: uuid.nullable().default(null),
  created_by: uuid,
  submitted_at: isoDateTime.nullable().default(null),
  /** Who completed the approval and when (the chain's last decision; null until APPROVED). */
  approved_by: uuid.nullable().default(null),
  approved_at: isoDateTime.nullable().default(null),
  /** Set when last rejected; cleared on resubmission. */
  rejection_reason: z.string().max(2000).nullable().default(null),
  /**
   * Payment attempts made so far (0 before the first). Each attempt is one ledger entry, keyed
   * by `paymentKey(id, attempt)`; a retry increments it, so a retry never reuses a failed key
   * and a replayed attempt never pays twice.
   */
  payment_attempt: z.number().int().nonnegative().default(0),
  /** Why the last attempt failed (PAYMENT_FAILED only). */
  payment_failure_reason: z.string().max(500).nullable().default(null),
  /** When it became PAID; `paid_manually`: marked paid (paid outside Ledgerline), not sent by us. */
  paid_at: isoDateTime.nullable().default(null),
  paid_manually: z.boolean().default(false),
  reconciled_at: isoDateTime.nullable().default(null),
  created_at: isoDateTime,
  /** When the bill was exported to the accounting system (a sync commit, issue 12); null otherwise. */
  accounting_synced_at: isoDateTime.nullable().optional(),
  /**
   * Issue 25: this bill repeats another live bill's vendor and invoice number (bill-rules.ts
   * `invoiceNumberKey`) and was saved anyway. Null otherwise. Carries what approvers and the
   * payment confirmation name (they may not see the other bill itself): its invoice number,
   * vendor, amount and status as the server read them when it last wrote this bill, and who
   * confirmed and when (null for a duplicate made before the check existed, migration 036).
   */
  duplicate_of: billDuplicateSchema.nullable().optional(),
  /** Issue 28: the purchase order this bill bills (its lines name the PO's lines); null: none. */
  purchase_order_id: uuid.nullable().default(null),
  /**
   * The three-way match against that PO and its receipts, as the server last stored it (null when
   * the bill names no PO). A MISMATCHED bill cannot be paid (PROCUREMENT_7013) until it matches
   * or an admin overrides it (OVERRIDDEN).
   */
  po_match: poMatchSchema.nullable().default(null),
  /** Issue 28: a payment waiting for (or refused by) the vendor-payment approval policy; see billPaymentApprovalSchema. */
  payment_approval: billPaymentApprovalSchema.nullable().default(null),
  ...mirroredFields,
});
export type Bill = z.infer<typeof billSchema>;

// --- Inputs ---------------------------------------------------------------------------------------

/** A line as the create call takes it (the shape); the server assigns the line ids. */
export const billLineInputSchema = z.object({
  description: z.string().trim().max(MAX_LINE_DESCRIPTION_LENGTH),
  amount: z.number().int().min(-MAX_BILL_AMOUNT).max(MAX_BILL_AMOUNT),
  gl_account_id: uuid.optional(),
  department_id: uuid.optional(),
  /** The line's location and accounting tracking (category id → option id), kept when the lines are re-sent. */
  location_id: uuid.optional(),
  tracking: z.record(uuid, uuid).optional(),
  /** A credit line: the vendor credit it draws on (its amount negative; the server checks what remains). */
  vendor_credit_id: uuid.optional(),
  /** Issue 28: the PO line billed (a line of the bill's `purchase_order_id`); it needs quantity and unit_price. */
  po_line_id: uuid.nullable().optional(),
  quantity: z.number().int().positive().max(MAX_LINE_QUANTITY).nullable().optional(),
  unit_price: z.number().int().min(0).max(MAX_BILL_AMOUNT).nullable().optional(),
});
export type BillLineInput = z.infer<typeof billLineInputSchema>;

/**
 * POST /bill-pay. Field shapes only; the rules across fields (lines sum, no negative lines,
 * due date after invoice date) are `validateBill` in bill-rules.ts, which the call runs so its
 * messages name the field. `submit`: send it for approval at once instead of saving a draft.
 */
export const billCreateSchema = z.object({
  /**
   * The client's id for the new bill (offline creates, commands/bill.ts): a repeat of a create
   * the caller already made under it answers the stored bill; an id used by anything else is a
   * 422 on `id`. Without it the server picks one.
   */
  id: uuid.optional(),
  vendor_id: uuid,
  invoice_number: z.string().trim().max(MAX_INVOICE_NUMBER_LENGTH),
  invoice_date: isoDate,
  due_date: isoDate,
  currency: knownCurrencySchema,
  line_items: z.array(billLineInputSchema).max(MAX_BILL_LINES),
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).optional(),
  submit: z.boolean().optional(),
  /**
   * Completes this provisional bill (§7 bill inbox, entities/provisional-bill.ts): in the same
   * write the bill takes its invoice file and the provisional bill is deleted. Another business's
   * (or an already completed) one is 404 and nothing is created.
   */
  provisional_bill_id: uuid.optional(),
  /**
   * Issue 25: another live bill of the business has this vendor and invoice number
   * (`invoiceNumberKey`), and the person saw it and saves this one anyway. Without it such a bill
   * is refused 422 BILL_PAY_DUPLICATE_INVOICE naming the other bill; with it the bill records
   * `duplicate_of` and who confirmed. On a PATCH it answers the check of a new vendor or invoice
   * number, or of `submit`.
   */
  confirm_duplicate: z.boolean().optional(),
  /**
   * Issue 28: the purchase order billed: the business's, live, not CLOSED, of the bill's vendor
   * (422 otherwise); its lines are named per line (`po_line_id`). null on a PATCH: no PO.
   */
  purchase_order_id: uuid.nullable().optional(),
});
export type BillCreate = z.infer<typeof billCreateSchema>;

/**
 * PATCH /bill-pay/{bill_uuid}: any create field; `line_items` replaces every line. `memo`,
 * `entity_id` and `invoice_file_id` take null to clear. Which statuses allow which fields is
 * `checkBillPatch` in bill-rules.ts. The payment date is set by scheduling, not here.
 */
/**
 * `submit: true` sends a draft, or a rejected bill after its fix, for approval in the same write as
 * the rest of the patch (§7 has no separate submit call; `submit: false` changes nothing).
 */
export const billPatchSchema = billCreateSchema.omit({ id: true, provisional_bill_id: true }).partial().extend({
  memo: z.string().max(MAX_BILL_MEMO_LENGTH).nullable().optional(),
  entity_id: uuid.nullable().optional(),
  invoice_file_id: uuid.nullable().optional(),
});
export type BillPatch = z.infer<typeof billPatchSchema>;

// --- Payments -------------------------------------------------------------------------------------

/**
 * PENDING: sent, not settled; SETTLED: the money arrived; FAILED: returned or refused (the bill
 * goes PAYMENT_FAILED); REVERSED: undone by reverse-bill-payment.
 */
const BILL_PAYMENT_STATUSES = ['PENDING', 'SETTLED', 'FAILED', 'REVERSED'] as const;
export const billPaymentStatusSchema = z.enum(BILL_PAYMENT_STATUSES);
export type BillPaymentStatus = z.infer<typeof billPaymentStatusSchema>;

/** One payment attempt of a bill, in the bill's currency; one per (bill_id, attempt). */
export const billPaymentSchema = z.object({
  id: uuid,
  bill_id: uuid,
  amount: z.number().int().positive().max(MAX_BILL_AMOUNT),
  status: billPaymentStatusSchema,
  /** 1 for the first attempt; the bill's `payment_attempt` when it was made. */
  attempt: z.number().int().positive(),
  created_at: isoDateTime,
});
export type BillPayment = z.infer<typeof billPaymentSchema>;

// --- The mirrored collection ------------------------------------------------------------------------

const BILL_SORTS = ['due_date_asc', 'due_date_desc', 'amount_desc', 'amount_asc', 'created_desc'] as const;
export const billSortSchema = z.enum(BILL_SORTS);
export type BillSort = z.infer<typeof billSortSchema>;

export const billFilterSchema = z.object({
  /** Free text over the invoice number and memo (`searchText`) and the vendor's name (`referencedIds`). */
  q: z.string().max(200).optional(),
  statuses: csv(billStatusSchema).optional(),
  vendor_ids: csv(z.uuid()).optional(),
  entity_ids: csv(z.uuid()).optional(),
});
export type BillFilter = z.infer<typeof billFilterSchema>;

export const matchesBillFilter = listMatcher<Bill, BillFilter>([
  { param: 'statuses', field: 'status' },
  { param: 'vendor_ids', field: 'vendor_id' },
  { param: 'entity_ids', field: 'entity_id' },
]);

const byId = (a: Bill, b: Bill) => ascending(a.id, b.id);
const byDue = (a: Bill, b: Bill) => ascending(a.due_date, b.due_date);

export function compareBills(sort: BillSort) {
  switch (sort) {
    case 'due_date_asc':
      return (a: Bill, b: Bill) => byDue(a, b) || byId(a, b);
    case 'due_date_desc':
      return (a: Bill, b: Bill) => byDue(b, a) || byId(a, b);
    case 'amount_desc':
      return (a: Bill, b: Bill) => b.amount - a.amount || byDue(a, b) || byId(a, b);
    case 'amount_asc':
      return (a: Bill, b: Bill) => a.amount - b.amount || byDue(a, b) || byId(a, b);
    case 'created_desc':
      return (a: Bill, b: Bill) => ascending(b.created_at, a.created_at) || byId(a, b);
  }
}

/** The vendor (a `refs` row whose shown text is its name: the `q` search finds a bill by it). */
const referencedIds = (b: Bill) => presentIds(b.vendor_id, b.entity_id);

/**
 * Mirrored in its own RxDB collection (queried: filters, sorts, text). No IndexedDB index: a
 * business holds thousands of bills, not 100k, and the engine sorts in memory (no cold-start
 * first page). Visibility `bill_pay`: bill managers (§6), the bill's creator and its approvers.
 */
/** A bill's lines in the invoice's order (replaced whole by a patch: server/domain/bills.ts). */
const BILL_LINES_SQL = `(SELECT coalesce(jsonb_agg(jsonb_build_object(
      'id', li.id, 'description', li.description, 'amount', li.amount, 'gl_account_id', li.gl_account_id,
      'department_id', li.department_id, 'location_id', li.location_id, 'tracking', li.tracking,
      'vendor_credit_id', li.vendor_credit_id, 'po_line_id', li.po_line_id, 'quantity', li.quantity,
      'unit_price', li.unit_price) ORDER BY li.position), '[]'::jsonb)
    FROM bill_line_items li WHERE li.bill_id = r.id)`;

/** Issue 25: the other bill of a duplicate (`billDuplicateSchema`), read when the doc is built. */
const BILL_DUPLICATE_OF_SQL = `(SELECT jsonb_build_object('id', d.id, 'invoice_number', d.invoice_number, 'vendor_id', d.vendor_id,
      'amount', d.amount, 'currency', d.currency, 'status', d.status, 'confirmed_by', r.duplicate_confirmed_by,
      'confirmed_at', ll_iso(r.duplicate_confirmed_at))
    FROM bills d WHERE d.id = r.duplicate_of)`;

export const billEntity = defineEntity({
  name: 'bills',
  schema: billSchema,
  mirror: { kind: 'own', indexes: [] },
  visibility: 'bill_pay',
  searchText: ['invoice_number', 'memo'],
  query: { filter: billFilterSchema, sorts: BILL_SORTS, matches: matchesBillFilter, compare: compareBills, referencedIds },
  /** Table `bills` (migrations 015, 020, 035, 036, 044, 049) and its lines (`bill_line_items`). */
  columns: columnsOf(billSchema, {
    vendor_id: { indexed: true },
    payment_date: { indexed: true },
    line_items: { sql: BILL_LINES_SQL },
    payment_attempt: { type: 'int' },
    created_at: { indexed: true },
    accounting_synced_at: { missing: 'null' },
    duplicate_of: { sql: BILL_DUPLICATE_OF_SQL, missing: 'null' },
    // Issue 28 (migration 044): rows mirrored before them read as no PO.
    purchase_order_id: { missing: 'null' },
    po_match: { missing: 'null' },
    // Migration 049: rows mirrored before it read as no payment waiting.
    payment_approval: { missing: 'null' },
  }),
});
