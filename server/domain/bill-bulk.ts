import type { Bill } from '../../schema/entities/bill.ts';
import { checkBillAction, validateBill } from '../../schema/bill-rules.ts';
import type { ActingUser } from '../core/actor.ts';
import { ApiError, refuse, validationError } from '../core/errors.ts';
import type { Queryable } from '../db/db.ts';
import { retryBillSync } from './accounting/retry-sync.ts';
import { cancelBillApproval, remindNextApprovers, type SendMail } from './bill-approvals.ts';
import { markBillPaid, payOne, pendingSettlement, requestPaymentApproval, type BillResult } from './bill-payments.ts';
import { rememberRail, resolveRail } from './bill-rails.ts';
import type { PaymentRail } from '../../schema/payment-rails.ts';
import { policySaved } from './approval-rows.ts';
import { assertNotSynced, findBill } from './bills.ts';
import { eachOnItsOwn } from './bulk-items.ts';
import { writeMirrored } from './collections.ts';
import { assertBulkBills } from './bulk-bill-limit.ts';
import { afterBillWrite, assertMatchAllowsPayment } from './procurement/bill-match-store.ts';

/**
 * §7 bill bulk actions (issue 11) besides pay-now (bill-payments.ts), the same way: at most the
 * business's `bulk_bill_creation_limit` (50 by default) distinct bills (assertBulkBills, refused whole), each on its own savepoint in id order
 * (`eachOnItsOwn`: a refusal rolls back that bill only and is answered in its place; two requests
 * naming the same bills queue on the business row, then the bills' rows), answered in the order
 * asked. Each bill's change takes its own seq (writeMirrored inside the savepoint, so a refused
 * bill leaves no seq behind). A shared value the caller sent (a date, the entity, the tracking
 * category) is checked once, before any bill: a bad one refuses the call (422, 404).
 */

/** What remind-next-approvers adds to a bill's answer. */
type Extra = { reminded_user_ids?: string[] };
type Item = { bill: Bill } & Extra;
const isItem = (row: Bill | Item): row is Item => 'bill' in row;

/** Runs `one` per bill (sorted, each all or nothing) and answers in the order asked. */
async function eachBill(tx: Queryable, user: ActingUser, ids: readonly string[], one: (id: string) => Promise<Bill | Item>): Promise<{ results: (BillResult & Extra)[] }> {
  await assertBulkBills(tx, user.business_id, ids);
  const items = await eachOnItsOwn(tx, [...ids].sort(), one);
  const byId = new Map(items.map((r) => [r.id, r]));
  const results = ids.map((id): BillResult & Extra => {
    const r = byId.get(id)!;
    if (!r.ok) return { id, ok: false, error_v2: r.error_v2 };
    return { id, ok: true, ...(isItem(r.row) ? r.row : { bill: r.row }) };
  });
  return { results };
}

/** One bill of the business, locked, whose status `action` starts from; stamped with a new seq by `write`. */
async function changeOne(
  tx: Queryable, user: ActingUser, id: string, action: Parameters<typeof checkBillAction>[0],
  write: (bill: Bill, seq: number, w: { reserve: (n: number) => Promise<{ last: number }> }) => Promise<void>,
): Promise<Bill> {
  return writeMirrored(tx, user.business_id, 1, async (w) => {
    const bill = await findBill(tx, user.business_id, id, true);
    // Issue 12: dates, tracking and amount of a bill exported to accounting are refused for that bill alone.
    assertNotSynced(bill, [action]);
    refuse(checkBillAction(action, bill.status));
    await write(bill, w.seqs.last, w);
    return findBill(tx, user.business_id, id);
  });
}

/** validateBill's message for the field, as this bill's refusal (the others go on). */
function assertBillDates(bill: Bill, field: 'due_date' | 'invoice_date'): void {
  const errors = validateBill({ ...bill, amount: undefined });
  const message = errors.due_date ?? errors.invoice_date;
  if (message) throw new ApiError('REQUEST_7001', message, { [field]: message });
}

async function setColumns(tx: Queryable, user: ActingUser, id: string, seq: number, at: string, set: Record<string, unknown>) {
  const cols = [...Object.keys(set).map((c, i) => `${c} = $${i + 5}`), 'change_seq = $3', 'updated_at = $4'];
  await tx.query(
    `UPDATE bills SET ${cols.join(', ')} WHERE business_id = $1 AND id = $2`,
    [user.business_id, id, seq, at, ...Object.values(set)],
  );
}

export async function bulkDates(
  tx: Queryable, user: ActingUser, ids: readonly string[], field: 'due_date' | 'invoice_date', value: string, now: Date,
) {
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'editDates', async (bill, seq) => {
    assertBillDates({ ...bill, [field]: value }, field);
    await setColumns(tx, user, id, seq, at, { [field]: value });
  }));
}

export async function bulkEntity(tx: Queryable, user: ActingUser, ids: readonly string[], entityId: string | null, now: Date) {
  if (entityId) {
    const rows = await tx.query('SELECT 1 FROM business_entities WHERE business_id = $1 AND id = $2 AND NOT deleted', [user.business_id, entityId]);
    if (rows.length === 0) throw new ApiError('REQUEST_7004', 'This entity was not found.');
  }
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'editEntity', (_b, seq) => setColumns(tx, user, id, seq, at, { entity_id: entityId })));
}

export async function bulkMemo(tx: Queryable, user: ActingUser, ids: readonly string[], memo: string | null, now: Date) {
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'editMemo', (_b, seq) => setColumns(tx, user, id, seq, at, { memo })));
}

/** A payment sent and not yet settled (`pendingSettlement`): canceling or rescheduling waits for it. */
async function assertNoPaymentInFlight(tx: Queryable, billId: string): Promise<void> {
  if (await pendingSettlement(tx, billId)) throw new ApiError('REQUEST_7001', 'This bill has a payment in flight; wait until it settles or fails.');
}

/**
 * APPROVED | SCHEDULED → SCHEDULED on `paymentDate` (today at the earliest, UTC). Only a bill whose
 * vendor can be paid on the rail (`rail`, else the vendor's default; issue 25: BILL_PAY_7101 naming
 * the vendor otherwise); the settlement job sends it on that day, on that rail.
 */
export async function bulkPaymentDate(
  tx: Queryable, user: ActingUser, ids: readonly string[], paymentDate: string, now: Date, rail?: PaymentRail,
) {
  if (paymentDate < now.toISOString().slice(0, 10)) throw validationError({ payment_date: 'The payment date cannot be in the past.' });
  const at = now.toISOString();
  const gated = await policySaved(tx, user.business_id, 'vendor-payment');
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'schedule', async (bill, seq, w) => {
    // Issue 28: with a saved vendor-payment policy, scheduling asks for approval and moves nothing yet.
    if (gated) {
      const reserve = async () => (await w.reserve(1)).last;
      await requestPaymentApproval(tx, user, bill, { method: 'SCHEDULE', pay_on: paymentDate }, { bill: seq, reserve }, now, rail);
      return;
    }
    await assertNoPaymentInFlight(tx, id);
    // Issue 28: a bill that does not match its purchase order is not scheduled either.
    assertMatchAllowsPayment(bill);
    // Only a rail asked for is remembered: without one, the vendor's default is chosen on the day.
    const chosen = await resolveRail(tx, user.business_id, bill, rail);
    await rememberRail(tx, id, rail ? chosen : null);
    await setColumns(tx, user, id, seq, at, { status: 'SCHEDULED', payment_date: paymentDate });
  }));
}

/** Every line gets the option for the category (null: the category is taken off every line). */
export async function bulkTracking(
  tx: Queryable, user: ActingUser, ids: readonly string[], categoryId: string, optionId: string | null, now: Date,
) {
  const [category] = await tx.query<{ options: { id: string }[] }>(
    'SELECT options FROM tracking_categories WHERE business_id = $1 AND id = $2 AND NOT deleted', [user.business_id, categoryId],
  );
  if (!category) throw new ApiError('REQUEST_7004', 'This tracking category was not found.');
  if (optionId && !category.options.some((o) => o.id === optionId)) {
    throw validationError({ option_id: 'option_id must be an option of the tracking category' });
  }
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'editCoding', async (_b, seq) => {
    await tx.query(
      `UPDATE bill_line_items SET tracking = CASE WHEN $3::text IS NULL THEN tracking - $2::text
                                                  ELSE tracking || jsonb_build_object($2::text, $3::text) END
        WHERE bill_id = $1`,
      [id, categoryId, optionId],
    );
    await setColumns(tx, user, id, seq, at, {});
  }));
}

/** Unpaid → CANCELED; a bill awaiting approval has its open approval (and chain) canceled too, with its own seq. */
export async function bulkCancel(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'cancel', async (bill, seq, w) => {
    await assertNoPaymentInFlight(tx, id);
    await setColumns(tx, user, id, seq, at, { status: 'CANCELED', payment_approval: null });
    // Issue 28: a payment waiting for approval (vendor-payment policy) is withdrawn with the bill.
    if (bill.status === 'PENDING_APPROVAL' || bill.payment_approval?.status === 'PENDING') await cancelBillApproval(tx, user.business_id, id, (await w.reserve(1)).last, at);
    // Issue 28: its units no longer count against its PO; the PO's other bills may match now.
    await afterBillWrite(tx, user.business_id, [bill.purchase_order_id], now);
  }));
}

const ONE_LINE = 'its amount is the sum of its lines: change the amounts of its lines instead.';

/** A new total for a draft or rejected bill of one ordinary line (the line takes it). */
export async function bulkAmount(tx: Queryable, user: ActingUser, items: readonly { bill_id: string; amount: number }[], now: Date) {
  const amounts = new Map(items.map((i) => [i.bill_id, i.amount]));
  const at = now.toISOString();
  return eachBill(tx, user, items.map((i) => i.bill_id), (id) => changeOne(tx, user, id, 'editPayable', async (bill, seq) => {
    const [line] = bill.line_items;
    if (bill.line_items.length !== 1 || !line || line.vendor_credit_id) {
      throw new ApiError('REQUEST_7001', `This bill has ${bill.line_items.length} lines or a credit line; ${ONE_LINE}`);
    }
    // Issue 28: a line billed by quantity and unit price has their product as its amount.
    if (line.quantity !== null || line.unit_price !== null) {
      throw new ApiError('REQUEST_7001', 'This bill\'s line is billed by quantity and unit price: change them on the line instead.');
    }
    const amount = amounts.get(id)!;
    await tx.query('UPDATE bill_line_items SET amount = $2 WHERE id = $1', [line.id, amount]);
    await setColumns(tx, user, id, seq, at, { amount });
  }));
}

export async function bulkMarkPaid(tx: Queryable, user: ActingUser, ids: readonly string[], paymentDate: string | undefined, now: Date) {
  return eachBill(tx, user, ids, (id) => markBillPaid(tx, user, id, paymentDate, now));
}

export async function bulkMarkReconciled(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  const at = now.toISOString();
  return eachBill(tx, user, ids, (id) => changeOne(tx, user, id, 'markReconciled', (_b, seq) =>
    setColumns(tx, user, id, seq, at, { status: 'RECONCILED', reconciled_at: at })));
}

/** PAYMENT_FAILED → a new attempt sent today (SCHEDULED until it settles), to a payable vendor only. */
export async function bulkRetryPayment(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  return eachBill(tx, user, ids, (id) =>
    writeMirrored(tx, user.business_id, 1, ({ seqs }) => payOne(tx, user, id, seqs.last, now, 'retryPayment')));
}

/** Each bill's accounting sync retried: a sync commit of that bill alone (accounting/retry-sync.ts). */
export async function bulkRetryAccountingSync(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date) {
  return eachBill(tx, user, ids, (id) => retryBillSync(tx, user, id, now));
}

/** Each bill awaiting approval: its open step's approvers mailed (bill-approvals.ts); the bill is unchanged. */
export async function bulkRemind(tx: Queryable, user: ActingUser, ids: readonly string[], now: Date, send: SendMail) {
  return eachBill(tx, user, ids, async (id) => {
    const reminder = await remindNextApprovers(tx, user, id, now, send);
    return { bill: await findBill(tx, user.business_id, id), reminded_user_ids: reminder.reminded_user_ids };
  });
}
