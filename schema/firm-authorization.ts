import type { CallAuth, Surface } from './api/scopes.ts';
import type { Bill, BillPatch } from './entities/bill.ts';
import { ADVISOR_RIGHTS, type AdvisorRight } from './entities/external-firm.ts';

/**
 * What a firm user may do inside a client (issue 31, design §3 "The firm user in a client"): the
 * authorization's rights READ / CODE / CLOSE_BOOKS, each opening a fixed set of calls. Default deny:
 * a business write this map does not name is refused (FIRM_7003), so a new call stays closed to
 * advisors until someone decides otherwise (schema/firm-authorization.test.ts walks CATALOGUE).
 * Shared with the client, which hides what the rights do not open.
 * An authorization is ACTIVE →(client ends | firm withdraws | last user unassigned)→ ENDED.
 */
export { ADVISOR_RIGHTS, type AdvisorRight };

const RIGHT_WORDS: Record<AdvisorRight, string> = { READ: 'reading its books', CODE: 'coding', CLOSE_BOOKS: 'closing the books' };

/** The right each business write (and read-only POST) needs; every other write is refused. */
export const ADVISOR_RIGHT_OF_CALL: Readonly<Record<string, AdvisorRight>> = {
  // Reads made as POSTs, and the session's own housekeeping.
  'transactions.search': 'READ',
  'reporting.generateReport': 'READ',
  'users.signOut': 'READ',
  'users.switchBusiness': 'READ',
  // Coding: the client's transactions and receipts.
  'transactions.patch': 'CODE',
  'transactions.bulkCode': 'CODE',
  'transactions.attachReceipt': 'CODE',
  'transactions.detachReceipt': 'CODE',
  'receipts.upload': 'CODE',
  'receipts.discard': 'CODE',
  'accounting.suggestedContext.dismiss': 'CODE',
  // A bill's coding only: the handler refuses any other change (advisorBillPatchRefusal below).
  'bills.update': 'CODE',
  // Closing the books: accounting sync, mapping rules, reconciliation, exports.
  'accounting.syncCommit': 'CLOSE_BOOKS',
  'accounting.markNotSynced': 'CLOSE_BOOKS',
  'accounting.preferences.update': 'CLOSE_BOOKS',
  'accounting.mappingRules.create': 'CLOSE_BOOKS',
  'accounting.mappingRules.replace': 'CLOSE_BOOKS',
  'accounting.mappingRules.delete': 'CLOSE_BOOKS',
  'accounting.mappingRules.apply': 'CLOSE_BOOKS',
  'accounting.reconciliation.manualMatch': 'CLOSE_BOOKS',
  'bills.bulk.retryAccountingSync': 'CLOSE_BOOKS',
  'bills.bulk.markReconciled': 'CLOSE_BOOKS',
  'transactions.exportAsFile': 'CLOSE_BOOKS',
  'reporting.exportAsFile': 'CLOSE_BOOKS',
};

/**
 * The step-ups (every surface may call them): inside a client an advisor never earns `sensitive`
 * or `email-otp`, so the calls they open stay closed whatever the rights.
 */
const NO_STEP_UP_IN_A_CLIENT = new Set(['auth.stepUp', 'auth.sendEmailOtp', 'auth.verifyEmailOtp']);

type GatedCall = { id: string; method: string; readOnly: boolean; auth: CallAuth; surfaces: readonly Surface[] };

const STEP_UP_ONLY = (auth: CallAuth) =>
  auth.kind === 'scopes' && !auth.scopes.includes('default') && auth.scopes.some((s) => s === 'sensitive' || s === 'email-otp');

/**
 * The right a call needs from an advisor, or null when no right opens it: a mapped call its right;
 * a read (GET, read-only POST) READ unless it needs a step-up (revealing bank details: advisors
 * never get `sensitive`); a call of several surfaces (identity, telemetry, scope switch) is the
 * identity's, not the business's, and needs READ; any other write nothing.
 */
export function advisorRightOf(call: GatedCall): AdvisorRight | null {
  if (NO_STEP_UP_IN_A_CLIENT.has(call.id)) return null;
  const mapped = ADVISOR_RIGHT_OF_CALL[call.id];
  if (mapped) return mapped;
  if (STEP_UP_ONLY(call.auth)) return null;
  if (call.method === 'GET' || call.readOnly) return 'READ';
  if (call.surfaces.length > 1) return 'READ';
  return null;
}

/** FIRM_7003's words for a call the rights do not open, or null when they do. */
export function advisorRefusal(call: GatedCall, rights: readonly AdvisorRight[]): string | null {
  const right = advisorRightOf(call);
  if (right && rights.includes(right)) return null;
  return right
    ? `Your firm's access to this business doesn't include ${RIGHT_WORDS[right]}. Ask the business to grant it.`
    : 'Your firm\'s access to this business doesn\'t include this. Only the business\'s own people can do it.';
}

/**
 * What `bills.update` lets an advisor with CODE change (design §3 "bill coding"): the bill's memo
 * and, on each line, the GL account and department (the coding a bill line takes; its location and
 * tracking categories are not fields of the call). Everything else is what approvers approve and
 * money follows (vendor, invoice number, dates, currency, lines' descriptions and amounts, credits,
 * the PO and its quantities and prices, the paying entity, the invoice file, submitting, confirming
 * a duplicate): it may be sent only as the bill already holds it, and the lines only as the same
 * lines in the same order.
 */
export const ADVISOR_BILL_CODING_FIELDS = ['memo', 'line_items'] as const satisfies readonly (keyof BillPatch)[];
export const ADVISOR_BILL_LINE_CODING_FIELDS = ['gl_account_id', 'department_id'] as const;

/** The bill fields a patch may only repeat, each with the words a refusal names it by. */
const BILL_HELD_FIELDS = {
  vendor_id: 'vendor', invoice_number: 'invoice number', invoice_date: 'invoice date', due_date: 'due date', currency: 'currency',
  purchase_order_id: 'purchase order', entity_id: 'paying entity', invoice_file_id: 'invoice document',
} as const satisfies Partial<Record<keyof BillPatch, string>>;
/** A line's fields other than its coding, as the call takes them (absent = null) and the bill stores them. */
const LINE_HELD_FIELDS = {
  description: 'descriptions', amount: 'amounts', vendor_credit_id: 'vendor credits', po_line_id: 'purchase order lines',
  quantity: 'quantities', unit_price: 'unit prices',
} as const;

type HeldBill = Pick<Bill, keyof typeof BILL_HELD_FIELDS | 'line_items'>;

const notCoding = (what: string) =>
  `Your firm's access to this business includes coding this bill (its lines' GL accounts and departments, and its memo), not changing its ${what}. Ask the business to change it.`;

/** What of `bill`'s lines other than coding `lines` would change, or null. */
function changedLineField(bill: HeldBill, lines: NonNullable<BillPatch['line_items']>): string | null {
  if (lines.length !== bill.line_items.length) return 'lines';
  for (const [i, line] of lines.entries()) {
    const held = bill.line_items[i]!;
    for (const [field, words] of Object.entries(LINE_HELD_FIELDS) as [keyof typeof LINE_HELD_FIELDS, string][]) {
      if ((line[field] ?? null) !== held[field]) return `line ${words}`;
    }
  }
  return null;
}

/**
 * FIRM_7003's words for an advisor's bill patch that changes more than the bill's coding
 * (ADVISOR_BILL_CODING_FIELDS), naming the first field it would change; null when it codes only.
 * `submit: false` and `confirm_duplicate: false` ask nothing, as for anyone.
 */
export function advisorBillPatchRefusal(bill: HeldBill, patch: BillPatch): string | null {
  if (patch.submit) return notCoding('status (submitting it for approval)');
  if (patch.confirm_duplicate) return notCoding('duplicate confirmation');
  for (const [field, words] of Object.entries(BILL_HELD_FIELDS) as [keyof typeof BILL_HELD_FIELDS, string][]) {
    const value = patch[field];
    if (value !== undefined && value !== bill[field]) return notCoding(words);
  }
  const line = patch.line_items ? changedLineField(bill, patch.line_items) : null;
  return line ? notCoding(line) : null;
}

/** The part of a bill patch an advisor's write carries: its coding fields, nothing it only repeated. */
export function advisorBillCoding(patch: BillPatch): Pick<BillPatch, (typeof ADVISOR_BILL_CODING_FIELDS)[number]> {
  return Object.fromEntries(ADVISOR_BILL_CODING_FIELDS.filter((f) => patch[f] !== undefined).map((f) => [f, patch[f]]));
}
