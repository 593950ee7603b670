import {
  BILL_ACTIONS, BILL_BULK_ACTIONS, BULK_BILL_LIMIT, checkBillAction, type BillAction, type BillBulkAction,
} from '../../../schema/bill-rules.ts';
import type { BillStatus } from '../../../schema/entities/bill.ts';
import type { BillBulkItem } from '../../../workers/api.ts';
import type { Vendor } from '../../../schema/entities/vendor.ts';
import { matchReasonsText, type PoMatch } from '../../../schema/bill-match.ts';
import { chooseRail } from '../../../schema/payment-rails.ts';
import { formatCount } from '../../lib/format.ts';

/** The vendor as the pay rule reads it: its bank account and, for a check, its mailing address (issue 30). */
export type PayVendor = Pick<Vendor, 'name' | 'bank_account'> & Partial<Pick<Vendor, 'address' | 'payee_approval'>>;

/**
 * Which bulk actions a selection offers, and how their outcome reads (pure, tested). Whether a
 * bill may take an action is the status machine's (schema/bill-rules.ts), never decided here.
 */

/** The bulk actions the Bills page offers, in the bar's order. */
export type OfferedBulkAction = Extract<
  BillBulkAction,
  'pay-now' | 'mark-bills-as-paid' | 'mark-bills-as-reconciled' | 'retry-payment' | 'remind-next-approvers' | 'cancel' | 'due-date' | 'payment-date' | 'memo'
>;

interface BulkWords {
  /** The button: "Pay now". */
  label: string;
  /** Done, per bill: "paid". */
  done: string;
  /** Shown in the bar itself; the rest sit in the "More actions" menu. */
  primary: boolean;
  /** Needs a value first (a date or a memo). */
  input?: 'due_date' | 'payment_date' | 'memo';
}

export const BULK_WORDS: Record<OfferedBulkAction, BulkWords> = {
  'pay-now': { label: 'Pay now', done: 'sent for payment', primary: true },
  'mark-bills-as-paid': { label: 'Mark as paid', done: 'marked as paid', primary: true },
  'mark-bills-as-reconciled': { label: 'Mark as reconciled', done: 'marked as reconciled', primary: true },
  'retry-payment': { label: 'Retry payment', done: 'sent again for payment', primary: false },
  'remind-next-approvers': { label: 'Remind approvers', done: 'reminded', primary: false },
  'payment-date': { label: 'Set payment date…', done: 'scheduled', primary: false, input: 'payment_date' },
  'due-date': { label: 'Set due date…', done: 'given the new due date', primary: false, input: 'due_date' },
  memo: { label: 'Set memo…', done: 'given the new memo', primary: false, input: 'memo' },
  cancel: { label: 'Cancel bills', done: 'canceled', primary: false },
};
export const OFFERED_BULK_ACTIONS = Object.keys(BULK_WORDS) as OfferedBulkAction[];

export const OFFLINE_REASON = 'This needs a connection; only paying can be queued offline.';
/** The bar's note offline. */
export const OFFLINE_NOTE = 'You’re offline: payments you confirm are queued here and sent once when you’re back online; the other bulk actions need a connection.';

/**
 * Offline, paying is the one bulk action still offered: each bill's payment is queued as an
 * outbox command (`bill.payNow`) after a confirmation naming every vendor and amount, and sent
 * once when the device is back online. Everything else is a direct call the server answers.
 */
export const QUEUED_OFFLINE: readonly OfferedBulkAction[] = ['pay-now'];

/** One bulk action for the current selection: the bills it would act on, or why it cannot run. */
export interface BulkOffer {
  action: OfferedBulkAction;
  label: string;
  /** The selected bills whose status lets the action run on them. */
  eligible: string[];
  /** Selected bills it would leave alone (their status refuses it). */
  skipped: number;
  /** Why the button is disabled; null when it can run. */
  disabled: string | null;
}

/** "only an approved or scheduled bill can be": the rule's own words, from BILL_ACTIONS' `cannot`. */
function ruleWords(action: BillAction): string {
  const cannot: string = BILL_ACTIONS[action].cannot;
  const open = cannot.indexOf('(');
  return open >= 0 ? cannot.slice(open + 1, cannot.lastIndexOf(')')) : cannot;
}

/** Why none of the selected bills can take `action`, in the status machine's words. */
export function noneEligibleReason(action: OfferedBulkAction): string {
  return `None of the selected bills can: ${ruleWords(BILL_BULK_ACTIONS[action].action)}.`;
}

/**
 * Every offered bulk action for a selection of bills (id and status as shown): enabled when the
 * page is online (paying: offline too, queued), the selection (`count` bills, default the rows given) is within the bulk limit
 * (§3, 50) and at least one bill's status allows it; the others are left out of the request and
 * counted as skipped.
 */
export function bulkOffers(
  selected: readonly { id: string; status: BillStatus }[],
  { online, limit = BULK_BILL_LIMIT, count = selected.length }: { online: boolean; limit?: number; count?: number },
): BulkOffer[] {
  return OFFERED_BULK_ACTIONS.map((action) => {
    const rule = BILL_BULK_ACTIONS[action].action;
    const eligible = selected.filter((b) => checkBillAction(rule, b.status).ok).map((b) => b.id);
    const base = { action, label: BULK_WORDS[action].label, eligible, skipped: selected.length - eligible.length };
    if (!online && !QUEUED_OFFLINE.includes(action)) return { ...base, disabled: OFFLINE_REASON };
    if (count > limit) return { ...base, disabled: `Select at most ${formatCount(limit)} bills at a time (${formatCount(count)} selected).` };
    if (eligible.length === 0) return { ...base, disabled: noneEligibleReason(action) };
    return { ...base, disabled: null };
  });
}

const bills = (n: number) => `${formatCount(n)} ${n === 1 ? 'bill' : 'bills'}`;

/**
 * The server's per-bill answer in words, with the bills left out before sending:
 * "2 bills sent for payment. 1 skipped: This bill is paid (status PAID) and cannot be paid now (…)."
 * Refusals with the same message are counted together; so are `held`, the reasons of bills the
 * page left out before sending (the pay rule's, a mismatch with the purchase order).
 */
export function bulkOutcomeText(
  action: OfferedBulkAction, results: readonly BillBulkItem[], skipped: number, held: readonly string[] = [],
): { text: string; failed: number } {
  const done = results.filter((r) => r.ok).length;
  const reasons = new Map<string, number>();
  for (const r of results) {
    if (r.ok) continue;
    const message = r.error_v2?.message ?? 'The server refused it.';
    reasons.set(message, (reasons.get(message) ?? 0) + 1);
  }
  const failed = results.length - done;
  // Issue 28: under a vendor-payment policy a payment or schedule only asks; say so, not "sent".
  const asked = results.filter((r) => r.ok && r.bill?.payment_approval?.status === 'PENDING').length;
  const moved = done - asked;
  const parts = [moved > 0 || asked === 0 ? (moved > 0 ? `${bills(moved)} ${BULK_WORDS[action].done}.` : `No bills ${BULK_WORDS[action].done}.`) : ''];
  if (asked > 0) parts.push(`${bills(asked)} sent for payment approval: nothing is paid until the approvers approve.`);
  for (const [message, n] of reasons) parts.push(`${formatCount(n)} not changed: ${message}`);
  if (skipped > 0) parts.push(`${formatCount(skipped)} skipped: ${ruleWords(BILL_BULK_ACTIONS[action].action)}.`);
  const kept = new Map<string, number>();
  for (const why of held) kept.set(why, (kept.get(why) ?? 0) + 1);
  for (const [why, n] of kept) parts.push(`${formatCount(n)} not sent: ${why}`);
  return { text: parts.filter(Boolean).join(' '), failed };
}

/** The drawer's actions on one bill, in the order shown. */
export type BillDrawerAction =
  | 'submit' | 'edit' | 'delete' | 'payNow' | 'markPaid' | 'retryPayment' | 'markReconciled' | 'reversePayment' | 'remindApprovers' | 'cancel';

interface DrawerActionSpec {
  /** The status machine's action it runs (delete: drafts only, its own rule). */
  rule: BillAction | 'deleteDraft';
  /**
   * Online only: a direct call (no outbox command exists for it). Outbox commands work offline
   * (paying: a direct call online, a queued `bill.payNow` offline).
   */
  online: boolean;
  /** Acts on the server's state there and then: not offered while a change to the bill waits to sync. */
  money?: true;
}

const DRAWER_ACTIONS: Record<BillDrawerAction, DrawerActionSpec> = {
  submit: { rule: 'submit', online: false },
  edit: { rule: 'editPayable', online: false },
  delete: { rule: 'deleteDraft', online: false },
  payNow: { rule: 'payNow', online: false, money: true },
  markPaid: { rule: 'markPaid', online: true, money: true },
  retryPayment: { rule: 'retryPayment', online: true, money: true },
  markReconciled: { rule: 'markReconciled', online: true },
  reversePayment: { rule: 'reversePayment', online: true, money: true },
  remindApprovers: { rule: 'remindApprovers', online: true },
  cancel: { rule: 'cancel', online: true, money: true },
};

/** The label of a drawer action for a bill in `status` ("Resubmit" for a rejected bill). */
export function drawerActionLabel(action: BillDrawerAction, status: BillStatus): string {
  switch (action) {
    case 'submit': return status === 'REJECTED' ? 'Resubmit for approval' : 'Submit for approval';
    case 'edit': return 'Edit';
    case 'delete': return 'Delete draft';
    case 'payNow': return 'Pay now';
    case 'markPaid': return 'Mark as paid';
    case 'retryPayment': return 'Retry payment';
    case 'markReconciled': return 'Mark as reconciled';
    case 'reversePayment': return 'Reverse payment';
    case 'remindApprovers': return 'Remind approvers';
    case 'cancel': return 'Cancel bill';
  }
}

/** Whether the action needs a connection (a direct call, not an outbox command). */
export const needsConnection = (action: BillDrawerAction): boolean => DRAWER_ACTIONS[action].online;

/**
 * The actions the status machine allows on a bill in `status`. A draft is deleted rather than
 * canceled (nothing was sent anywhere yet), so Cancel is offered from the other open statuses.
 * `syncing`: a change to the bill (a queued payment among them) is not yet confirmed, so what the
 * bill shows is not yet the server's: paying, marking, reversing and canceling wait for it.
 */
export function drawerActions(status: BillStatus, syncing = false): BillDrawerAction[] {
  return (Object.keys(DRAWER_ACTIONS) as BillDrawerAction[]).filter((action) => {
    const { rule, money } = DRAWER_ACTIONS[action];
    if (syncing && money) return false;
    if (rule === 'deleteDraft') return status === 'DRAFT';
    if (action === 'cancel' && status === 'DRAFT') return false;
    return checkBillAction(rule, status).ok;
  });
}

/** A change to the bill not yet confirmed by the server (a queued payment among them): what it shows is not yet the server's. */
export const SYNCING_STATES: ReadonlySet<string | null> = new Set(['pending', 'sending', 'needs_step_up']);

/** What the pay rule reads of a bill. */
export interface PayableBill {
  status: BillStatus;
  currency: string;
  payment_date: string | null;
  payment_attempt: number;
  /** The bill's unconfirmed change state as shown (null: none). */
  pending?: string | null;
  /** Issue 28: the three-way match with its purchase order (MISMATCHED: the server refuses to pay it, PROCUREMENT_7013). */
  po_match?: PoMatch | null;
}

/** A payment of the bill is on its way (sent on its payment date, not yet settled): nothing to pay again. */
export const isProcessing = (bill: PayableBill, today: string): boolean =>
  bill.status === 'SCHEDULED' && !!bill.payment_date && bill.payment_date <= today && bill.payment_attempt > 0;

/** Why a bill is not paid now (issue 25): its payment is already on its way, or its vendor cannot be paid. */
export type PayBlock = { reason: 'in-flight' | 'processing' | 'vendor'; message: string };

/**
 * The one rule for "Pay now" beyond the status machine (the drawer hides the button, the bulk bar
 * leaves the bill out and says why): not while a change to the bill (a queued payment) waits to
 * sync, not while a payment of it is processing, not when its vendor cannot be paid
 * (`chooseRail`: the default rail's rule, the server's; a vendor the device does not know yet is left to the
 * server, which answers per bill). Null: nothing holds it back.
 */
export function payBlock(bill: PayableBill, vendor: PayVendor | undefined, today: string): PayBlock | null {
  if (SYNCING_STATES.has(bill.pending ?? null)) {
    return { reason: 'in-flight', message: 'A payment or change of this bill is waiting to sync: it is not sent again.' };
  }
  if (isProcessing(bill, today)) return { reason: 'processing', message: 'Its payment is already processing: it is not sent again.' };
  // Issue 30: the vendor's default rail (ACH with a bank account, else a mailed check); its refusal is ACH's words as before.
  const check = vendor ? chooseRail({ ...vendor, address: vendor.address ?? null }, bill.currency) : null;
  return check && !check.ok ? { reason: 'vendor', message: check.message } : null;
}

/** What a pay confirmation moves and leaves (issue 25), split by the vendors' payment rule. */
export interface PayPlan<B> {
  /** Bills whose money can move: sent. */
  paying: B[];
  /** Bills left out, each with why (a payment on its way, the vendor's bank details, or the currency). */
  skipped: { bill: B; reason: string }[];
  /**
   * Bills the server would refuse (issue 28: MISMATCHED with their purchase order, PROCUREMENT_7013),
   * each with the match's reasons: said before sending, left out, the rest paid.
   */
  refused: { bill: B; reason: string }[];
  /** Sums of the paying bills per currency, most first: "$1,200.00 · €300.00". */
  totals: { currency: string; amount: number; count: number }[];
}

/**
 * What a bulk outcome says of bills left out for their match, whatever their number ("2 not sent:
 * …"); each bill's own reasons are in the confirmation and its drawer.
 */
export const MISMATCH_HELD = 'mismatched with the purchase order, which the server refuses to pay (the bill shows why: fix it, receive what is missing, or have an admin override the match).';

/**
 * Why the server refuses to pay a bill for its three-way match (MISMATCHED: PROCUREMENT_7013),
 * with its first two reasons; null when the match lets it be paid (none, MATCHED, OVERRIDDEN).
 */
export function mismatchReason(m: PoMatch | null | undefined): string | null {
  if (!m || m.status !== 'MISMATCHED') return null;
  const reasons = matchReasonsText(m);
  const more = reasons.length > 2 ? ` (${formatCount(reasons.length - 2)} more in the bill)` : '';
  return `Does not match its purchase order: ${reasons.slice(0, 2).join(' ') || 'the match found a difference.'}${more}`;
}

/**
 * Splits bills to pay by the pay rule (`payBlock`: a payment already processing or waiting to
 * sync, a vendor that cannot be paid) and by the three-way match (`mismatchReason`: the server
 * would refuse a MISMATCHED bill); each bill left out keeps why.
 */
export function payPlan<B extends PayableBill & { vendor_id: string; amount: number }>(
  bills: readonly B[], vendorOf: (id: string) => PayVendor | undefined, today: string,
): PayPlan<B> {
  const paying: B[] = [];
  const skipped: { bill: B; reason: string }[] = [];
  const refused: { bill: B; reason: string }[] = [];
  for (const bill of bills) {
    const block = payBlock(bill, vendorOf(bill.vendor_id), today);
    const mismatch = block ? null : mismatchReason(bill.po_match);
    if (block) skipped.push({ bill, reason: block.message });
    else if (mismatch) refused.push({ bill, reason: mismatch });
    else paying.push(bill);
  }
  const sums = new Map<string, { amount: number; count: number }>();
  for (const b of paying) {
    const s = sums.get(b.currency) ?? { amount: 0, count: 0 };
    sums.set(b.currency, { amount: s.amount + b.amount, count: s.count + 1 });
  }
  const totals = [...sums].map(([currency, s]) => ({ currency, ...s })).sort((a, b) => b.count - a.count);
  return { paying, skipped, refused, totals };
}
