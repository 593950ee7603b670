import type { Bill, BillPatch, BillStatus } from './entities/bill.ts';
import { MAX_BILL_AMOUNT, MAX_BILL_LINES, MAX_INVOICE_NUMBER_LENGTH } from './entities/bill.ts';
import { BULK_BILL_CREATION_LIMIT } from './constants.ts';
import { formatMoney, isKnownCurrency } from './money.ts';
import { canManageBillPayAccounting, type Actor } from './roles.ts';

/**
 * Bill rules (issue 11 §7 bill pay), pure: the status machine and the actions along it (single
 * and bulk), the validation of a bill's fields, who may manage bills, the duplicate-invoice rule
 * and the payment idempotency key. Server and worker share them.
 */

/**
 * DRAFT → PENDING_APPROVAL (submit) → APPROVED → SCHEDULED → PAID → RECONCILED.
 * PENDING_APPROVAL → REJECTED → PENDING_APPROVAL (resubmit, after a fix).
 * SCHEDULED → PAYMENT_FAILED (the attempt failed) → SCHEDULED (retry).
 * APPROVED | SCHEDULED | PAYMENT_FAILED → PAID (mark as paid: paid outside Ledgerline).
 * PAID → APPROVED (reverse the payment: see `reversePayment`).
 * Anything not yet paid → CANCELED. CANCELED and RECONCILED are final.
 */
export const BILL_MOVES: Readonly<Record<BillStatus, readonly BillStatus[]>> = {
  DRAFT: ['PENDING_APPROVAL', 'CANCELED'],
  PENDING_APPROVAL: ['APPROVED', 'REJECTED', 'CANCELED'],
  APPROVED: ['SCHEDULED', 'PAID', 'CANCELED'],
  SCHEDULED: ['PAID', 'PAYMENT_FAILED', 'CANCELED'],
  PAID: ['RECONCILED', 'APPROVED'],
  RECONCILED: [],
  REJECTED: ['PENDING_APPROVAL', 'CANCELED'],
  CANCELED: [],
  PAYMENT_FAILED: ['SCHEDULED', 'PAID', 'CANCELED'],
};

const LABEL: Record<BillStatus, string> = {
  DRAFT: 'a draft', PENDING_APPROVAL: 'awaiting approval', APPROVED: 'approved', SCHEDULED: 'scheduled for payment',
  PAID: 'paid', RECONCILED: 'reconciled', REJECTED: 'rejected', CANCELED: 'canceled',
  PAYMENT_FAILED: 'unpaid after a failed payment',
};

/** Not yet paid and not canceled: the invoice is still owed. */
const OPEN: readonly BillStatus[] = ['DRAFT', 'PENDING_APPROVAL', 'REJECTED', 'APPROVED', 'SCHEDULED', 'PAYMENT_FAILED'];

/**
 * Each action: the statuses it starts from and its target (null: it keeps the status;
 * `schedule` and `payNow` keep a SCHEDULED bill SCHEDULED with a new payment date). `cannot`
 * ends the refusal "This bill is … (status …) and cannot …".
 */
export const BILL_ACTIONS = {
  submit: { from: ['DRAFT', 'REJECTED'], to: 'PENDING_APPROVAL', cannot: 'be submitted for approval (only a draft or a rejected bill can be)' },
  approve: { from: ['PENDING_APPROVAL'], to: 'APPROVED', cannot: 'be approved (only a bill awaiting approval can be)' },
  reject: { from: ['PENDING_APPROVAL'], to: 'REJECTED', cannot: 'be rejected (only a bill awaiting approval can be)' },
  // A paid bill's money has left: reverse the payment first, then cancel.
  cancel: { from: OPEN, to: 'CANCELED', cannot: 'be canceled (only an unpaid bill can be)' },
  schedule: { from: ['APPROVED', 'SCHEDULED'], to: 'SCHEDULED', cannot: 'be scheduled for payment (only an approved or scheduled bill can be)' },
  payNow: { from: ['APPROVED', 'SCHEDULED'], to: 'SCHEDULED', cannot: 'be paid now (only an approved or scheduled bill can be)' },
  // The payment's outcome, recorded by the server when the rail reports it.
  paymentSettled: { from: ['SCHEDULED'], to: 'PAID', cannot: 'have a payment settle (only a scheduled bill has one in flight)' },
  paymentFailed: { from: ['SCHEDULED'], to: 'PAYMENT_FAILED', cannot: 'have a payment fail (only a scheduled bill has one in flight)' },
  retryPayment: { from: ['PAYMENT_FAILED'], to: 'SCHEDULED', cannot: 'have its payment retried (only a bill whose payment failed can)' },
  markPaid: { from: ['APPROVED', 'SCHEDULED', 'PAYMENT_FAILED'], to: 'PAID', cannot: 'be marked as paid (only an approved, scheduled or failed-payment bill can be)' },
  markReconciled: { from: ['PAID'], to: 'RECONCILED', cannot: 'be marked as reconciled (only a paid bill can be)' },
  /**
   * PAID → APPROVED: a payment marked by mistake, or one the bank returned after it settled.
   * The invoice is still owed and its approval still stands (a paid bill's amount, vendor and
   * lines could not change since), so it goes back to APPROVED to be paid again: not to DRAFT
   * (approving the same bill twice adds nothing) nor to PAYMENT_FAILED (which retries the same
   * attempt's details). A RECONCILED bill cannot be reversed: the books matched its payment.
   */
  reversePayment: { from: ['PAID'], to: 'APPROVED', cannot: 'have its payment reversed (only a paid, not yet reconciled bill can)' },
  // What is owed and to whom: approvers approved the amount, vendor and lines they saw.
  editPayable: { from: ['DRAFT', 'REJECTED'], to: null, cannot: 'have its vendor, invoice number, currency, amount or lines changed (only a draft or a rejected bill can)' },
  editDates: { from: OPEN, to: null, cannot: 'have its invoice or due date changed (only an unpaid bill can)' },
  // The entity's account pays: not once a payment is scheduled from it.
  editEntity: { from: ['DRAFT', 'PENDING_APPROVAL', 'REJECTED', 'APPROVED', 'PAYMENT_FAILED'], to: null, cannot: 'change entity (not once a payment is scheduled or made)' },
  // Coding syncs to accounting; a reconciled bill's books are closed.
  editCoding: { from: [...OPEN, 'PAID'], to: null, cannot: 'have its tracking categories changed (not once reconciled or canceled)' },
  editMemo: { from: [...OPEN, 'PAID', 'RECONCILED'], to: null, cannot: 'have its memo or invoice document changed (not once canceled)' },
  // Accounting learns of a bill once it is approved; the statuses the sync takes
  // (server/domain/accounting/sync-items.ts SYNCABLE.bill): a failed payment waits for its retry.
  retryAccountingSync: { from: ['APPROVED', 'SCHEDULED', 'PAID', 'RECONCILED'], to: null, cannot: 'be synced to accounting (only an approved bill is)' },
  remindApprovers: { from: ['PENDING_APPROVAL'], to: null, cannot: 'have its approvers reminded (only a bill awaiting approval has any)' },
} as const satisfies Record<string, { from: readonly BillStatus[]; to: BillStatus | null; cannot: string }>;
export type BillAction = keyof typeof BILL_ACTIONS;

export type BillCheck = { ok: true } | { ok: false; message: string };

/** Whether `action` may run on a bill in status `from`; if not, a message naming the status. */
export function checkBillAction(action: BillAction, from: BillStatus): BillCheck {
  const a = BILL_ACTIONS[action];
  if ((a.from as readonly BillStatus[]).includes(from)) return { ok: true };
  return { ok: false, message: `This bill is ${LABEL[from]} (status ${from}) and cannot ${a.cannot}.` };
}

/** The status after `submit` on create: a draft unless sent for approval at once. */
export const createdStatus = (submit: boolean | undefined): BillStatus => (submit ? 'PENDING_APPROVAL' : 'DRAFT');

// --- Patches -------------------------------------------------------------------------------------

/**
 * The action each patchable field needs (checkBillPatch checks every field present).
 * `confirm_duplicate` is no field and needs no action of its own: it answers the duplicate check
 * of the vendor, invoice number or submit it comes with (server/domain/bill-creates.ts).
 */
const PATCH_FIELD_ACTION: Record<Exclude<keyof BillPatch, 'confirm_duplicate'>, BillAction> = {
  vendor_id: 'editPayable',
  invoice_number: 'editPayable',
  currency: 'editPayable',
  line_items: 'editPayable',
  // Issue 28: which PO the bill bills is what approvers approved too.
  purchase_order_id: 'editPayable',
  invoice_date: 'editDates',
  due_date: 'editDates',
  entity_id: 'editEntity',
  memo: 'editMemo',
  invoice_file_id: 'editMemo',
  submit: 'submit',
};

/** The actions a patch performs, each once, in a stable order. */
export function billPatchActions(patch: BillPatch): BillAction[] {
  const actions = new Set<BillAction>();
  for (const field of Object.keys(PATCH_FIELD_ACTION) as (keyof typeof PATCH_FIELD_ACTION)[]) {
    if (patch[field] !== undefined && patch[field] !== false) actions.add(PATCH_FIELD_ACTION[field]);
  }
  return [...actions];
}

/** Whether every field of `patch` may change in `status`; the first refusal otherwise. */
export function checkBillPatch(patch: BillPatch, status: BillStatus): BillCheck {
  for (const action of billPatchActions(patch)) {
    const check = checkBillAction(action, status);
    if (!check.ok) return check;
  }
  return { ok: true };
}

// --- Bulk actions --------------------------------------------------------------------------------

/** §7's bulk actions under /bill-pay/bulk-actions/, each with its method and the action it runs per bill. */
export const BILL_BULK_ACTIONS = {
  'due-date': { method: 'PATCH', action: 'editDates' },
  'invoice-date': { method: 'PATCH', action: 'editDates' },
  entity: { method: 'PATCH', action: 'editEntity' },
  memo: { method: 'PATCH', action: 'editMemo' },
  'payment-date': { method: 'PATCH', action: 'schedule' },
  'tracking-category': { method: 'PATCH', action: 'editCoding' },
  cancel: { method: 'POST', action: 'cancel' },
  'pay-now': { method: 'POST', action: 'payNow' },
  amount: { method: 'POST', action: 'editPayable' },
  'mark-bills-as-paid': { method: 'POST', action: 'markPaid' },
  'mark-bills-as-reconciled': { method: 'POST', action: 'markReconciled' },
  'retry-payment': { method: 'POST', action: 'retryPayment' },
  'retry-accounting-sync': { method: 'POST', action: 'retryAccountingSync' },
  'remind-next-approvers': { method: 'POST', action: 'remindApprovers' },
} as const satisfies Record<string, { method: 'PATCH' | 'POST'; action: BillAction }>;
export type BillBulkAction = keyof typeof BILL_BULK_ACTIONS;

/** The statuses a bulk action accepts a bill in (those of the action it runs). */
export const bulkActionStatuses = (name: BillBulkAction): readonly BillStatus[] => BILL_ACTIONS[BILL_BULK_ACTIONS[name].action].from;

/** One bill of a bulk action: checked on its own, so one refusal does not fail the others. */
export const checkBulkBillAction = (name: BillBulkAction, status: BillStatus): BillCheck =>
  checkBillAction(BILL_BULK_ACTIONS[name].action, status);

/**
 * §3's flag `bulk_bill_creation_limit` (50 unless the business overrides it; pass the resolved
 * value). It bounds bulk creation; the bulk actions take the same bound so one request stays a
 * size a person reviewed.
 */
export const BULK_BILL_LIMIT = BULK_BILL_CREATION_LIMIT;

/** The bills of one bulk request: at least one, at most `limit`, none twice. */
export function checkBulkBills(ids: readonly string[], limit: number = BULK_BILL_LIMIT): BillCheck {
  if (ids.length === 0) return { ok: false, message: 'Choose at least one bill.' };
  if (ids.length > limit) return { ok: false, message: `You can act on at most ${limit} bills at a time; ${ids.length} were chosen.` };
  if (new Set(ids).size !== ids.length) return { ok: false, message: 'The same bill was chosen twice.' };
  return { ok: true };
}

// --- Who may act ---------------------------------------------------------------------------------

/** §6 "manage bill pay accounting": an admin, an AP clerk (AP_ACCESS) or a bookkeeper. */
export const mayManageBills = (actor: Actor): boolean => canManageBillPayAccounting(actor);

// --- Validation ----------------------------------------------------------------------------------

/** Field → message; empty when the bill is acceptable. */
export type FieldErrors = Record<string, string>;

/** What validateBill reads: a create body, a patched bill, or a stored one. */
export type BillFields = {
  invoice_number: string;
  invoice_date: string;
  due_date: string;
  currency: string;
  /** The total as stated; when given, the lines must add up to it. */
  amount?: number | null;
  line_items: readonly { amount: number; vendor_credit_id?: string | null }[];
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (s: string) =>
  ISO_DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

/** The lines' total (credit lines netted), in minor units. */
export const billTotal = (lines: BillFields['line_items']) => lines.reduce((sum, l) => sum + l.amount, 0);

function lineErrors(lines: BillFields['line_items']): FieldErrors {
  const errors: FieldErrors = {};
  if (lines.length === 0) errors.line_items = 'Add at least one line to the bill.';
  if (lines.length > MAX_BILL_LINES) errors.line_items = `A bill can have at most ${MAX_BILL_LINES} lines.`;
  lines.forEach((line, i) => {
    const key = `line_items.${i}.amount`;
    const credit = Boolean(line.vendor_credit_id);
    if (!Number.isSafeInteger(line.amount)) errors[key] = `Line ${i + 1}: enter the amount in whole cents (minor units).`;
    else if (!credit && line.amount < 0) errors[key] = `Line ${i + 1}: the amount cannot be negative. To take a vendor credit off the bill, apply the credit.`;
    else if (credit && line.amount >= 0) errors[key] = `Line ${i + 1}: a vendor credit line takes money off the bill, so its amount must be negative.`;
  });
  return errors;
}

function totalErrors(input: BillFields, currencyOk: boolean): FieldErrors {
  if (input.line_items.length === 0 || !input.line_items.every((l) => Number.isSafeInteger(l.amount))) return {};
  const sum = billTotal(input.line_items);
  const money = (n: number) => (currencyOk ? formatMoney(n, input.currency) : String(n));
  if (input.amount !== undefined && input.amount !== null && input.amount !== sum) {
    return { amount: `The lines add up to ${money(sum)}, not the bill's total of ${money(input.amount)}.` };
  }
  // A credit that covers the whole invoice is a vendor credit to keep, not a bill to pay.
  if (sum <= 0) return { amount: 'The bill must total more than zero after credits.' };
  if (sum > MAX_BILL_AMOUNT) return { amount: `The bill's total cannot be more than ${money(MAX_BILL_AMOUNT)}.` };
  return {};
}

const DUE_BEFORE_INVOICE = 'The due date cannot be before the invoice date.';

function dateErrors(input: BillFields): FieldErrors {
  const errors: FieldErrors = {};
  if (!isCalendarDate(input.invoice_date)) errors.invoice_date = 'Enter the invoice date as a calendar date (YYYY-MM-DD).';
  if (!isCalendarDate(input.due_date)) errors.due_date = 'Enter the due date as a calendar date (YYYY-MM-DD).';
  else if (!errors.invoice_date && input.due_date < input.invoice_date) errors.due_date = DUE_BEFORE_INVOICE;
  return errors;
}

/** Every problem with a bill's fields, by field, in words a person understands. */
export function validateBill(input: BillFields): FieldErrors {
  const errors: FieldErrors = {};
  const invoice = input.invoice_number.trim();
  if (invoice === '') errors.invoice_number = 'Enter the invoice number.';
  else if (invoice.length > MAX_INVOICE_NUMBER_LENGTH) {
    errors.invoice_number = `The invoice number can be at most ${MAX_INVOICE_NUMBER_LENGTH} characters.`;
  }
  const currencyOk = /^[A-Z]{3}$/.test(input.currency) && isKnownCurrency(input.currency);
  if (!currencyOk) errors.currency = 'Choose a known currency (a three-letter ISO 4217 code such as USD).';
  return { ...errors, ...dateErrors(input), ...lineErrors(input.line_items), ...totalErrors(input, currencyOk) };
}

/**
 * A provisional bill's known fields (an uploaded invoice not yet completed: every field may be
 * missing): only what is there is checked, in validateBill's words where the rule is the same.
 */
export function validateProvisionalBill(input: {
  invoice_date: string | null; due_date: string | null; amount: number | null; currency: string | null;
}): FieldErrors {
  const errors: FieldErrors = {};
  if (input.invoice_date && input.due_date && input.due_date < input.invoice_date) errors.due_date = DUE_BEFORE_INVOICE;
  if (input.amount !== null && input.currency === null) errors.currency = 'Give the currency of the amount.';
  return errors;
}

// --- Duplicates ------------------------------------------------------------------------------------

/**
 * The invoice number as duplicates compare it (issue 25: a duplicate is refused unless confirmed,
 * so a false match costs one click and a missed one can pay a vendor twice: the key is broad).
 * Unicode-normalized (NFKC: a full-width digit is a digit), case folded, whitespace removed, the
 * leading zeros of every run of digits dropped ("INV-0042" = "INV-42"; a run of zeros stays one
 * "0"), then everything but letters and digits dropped ("INV-001", "inv 001", "INV/1" and
 * "INV.001" are one number: vendors, clerks and OCR space and punctuate numbers differently).
 * Zeros go before punctuation, so "2024-001" = "2024-1" but not "2024001". A number with no
 * letter or digit ("—") compares by its form without whitespace.
 */
export function invoiceNumberKey(invoiceNumber: string): string {
  const folded = invoiceNumber.normalize('NFKC').toLocaleUpperCase('en-US').replace(/\s+/gu, '');
  const alnum = folded.replace(/(^|\D)0+(?=\d)/gu, '$1').replace(/[^\p{L}\p{N}]+/gu, '');
  return alnum === '' ? folded : alnum;
}

type InvoiceRef = Pick<Bill, 'vendor_id' | 'invoice_number'> & { id?: string };
type ExistingBill = Pick<Bill, 'id' | 'vendor_id' | 'invoice_number' | 'status'> & { deleted?: boolean };

/**
 * The bills `candidate` duplicates: the same vendor and invoice number (`invoiceNumberKey`).
 * Canceled bills do not count (canceling is how a wrong entry is undone, so re-entering it must
 * be allowed), nor deleted ones, nor the candidate itself (an edit is not its own duplicate).
 * Rejected bills do count: REJECTED is not final in BILL_MOVES (a rejected bill is fixed and
 * resubmitted, or canceled), so the invoice is still live on it. The
 * server's check-duplicate-invoice-number and the worker's offline check on the mirror both
 * call this, so they agree.
 */
export function findDuplicateInvoices<B extends ExistingBill>(candidate: InvoiceRef, existing: readonly B[]): B[] {
  const key = invoiceNumberKey(candidate.invoice_number);
  if (key === '') return [];
  return existing.filter(
    (b) =>
      b.id !== candidate.id && !b.deleted && b.status !== 'CANCELED' &&
      b.vendor_id === candidate.vendor_id && invoiceNumberKey(b.invoice_number) === key,
  );
}

export const isDuplicateInvoice = (candidate: InvoiceRef, existing: readonly ExistingBill[]): boolean =>
  findDuplicateInvoices(candidate, existing).length > 0;

/** What a duplicate refusal and the marks name of the other bill. */
export type DuplicateBillRef = Pick<Bill, 'invoice_number' | 'amount' | 'currency' | 'status'>;

/**
 * "Invoice INV-123 from Acme Supply is already on a bill for $1,250.00 (awaiting approval)": the
 * other bill as the refusal (BILL_PAY_DUPLICATE_INVOICE), the confirm dialog and the marks say it.
 * `others`: how many more live bills repeat it.
 */
export function duplicateBillText(other: DuplicateBillRef, vendorName: string, others = 0): string {
  const more = others > 0 ? `, and on ${others === 1 ? '1 more bill' : `${others} more bills`}` : '';
  return `Invoice ${other.invoice_number} from ${vendorName} is already on a bill for ${formatMoney(other.amount, other.currency)} ` +
    `(${LABEL[other.status]})${more}`;
}

/** BILL_PAY_DUPLICATE_INVOICE's message: the other bill, then what to do. */
export const duplicateInvoiceRefusal = (other: DuplicateBillRef, vendorName: string, others = 0): string =>
  `${duplicateBillText(other, vendorName, others)}. Check it is not the same invoice entered twice, ` +
  'or the vendor may be paid twice; to save this bill anyway, confirm the duplicate.';

// --- Payments --------------------------------------------------------------------------------------

/**
 * The idempotency key of a bill's payment attempt: one ledger entry per (bill, attempt). A
 * replayed request (an offline retry, a crash between send and commit) carries the same key and
 * finds the entry already made; a retry after a failure is the next attempt, a new key.
 */
export function paymentKey(billId: string, attempt: number): string {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`A payment attempt is numbered from 1: ${attempt}`);
  return `bill-payment:${billId}:${attempt}`;
}

/** The attempt a new payment of `bill` makes (its first, or the one after the last failed). */
export const nextPaymentAttempt = (bill: Pick<Bill, 'payment_attempt'>) => bill.payment_attempt + 1;
