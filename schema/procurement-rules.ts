import type { SpendRequest, SpendRequestStatus, SpendRequestType, RequestLine } from './entities/spend-request.ts';
import type { PurchaseOrder, PurchaseOrderStatus, ItemReceiptLine } from './entities/purchase-order.ts';
import type { FeatureFlagName } from './feature-flags.ts';
import type { ErrorCode } from './errors.ts';

/**
 * Issue 28, procurement, pure: the spend request's status machine and what may be done in each
 * status, the field rules of a request, the flags of its types, and what item receipts may
 * record. The server enforces them; the worker applies them optimistically; the UI offers only
 * what they allow.
 */

/** Where each status may go. APPROVED → FULFILLED happens in the approving transaction. */
export const SPEND_REQUEST_MOVES: Readonly<Record<SpendRequestStatus, readonly SpendRequestStatus[]>> = {
  DRAFT: ['PENDING_APPROVAL', 'CANCELED'],
  PENDING_APPROVAL: ['APPROVED', 'REJECTED', 'CANCELED'],
  APPROVED: ['FULFILLED'],
  FULFILLED: [],
  REJECTED: [],
  CANCELED: [],
};

export const canMoveSpendRequest = (from: SpendRequestStatus, to: SpendRequestStatus) => SPEND_REQUEST_MOVES[from].includes(to);

export type SpendRequestAction = 'edit' | 'submit' | 'cancel' | 'delete' | 'attach';

/** Which statuses each action is open in. */
const ACTION_STATUSES: Readonly<Record<SpendRequestAction, readonly SpendRequestStatus[]>> = {
  /** Field edits: only a draft (approvers approve what they saw). */
  edit: ['DRAFT'],
  submit: ['DRAFT'],
  /** The requester withdraws it; a pending one's open approval is canceled with it. */
  cancel: ['DRAFT', 'PENDING_APPROVAL'],
  /** A tombstone: only what never took effect. */
  delete: ['DRAFT', 'REJECTED', 'CANCELED'],
  /** Documents may be added until it is decided. */
  attach: ['DRAFT', 'PENDING_APPROVAL'],
};

export type ProcurementCheck = { ok: true } | { ok: false; code: ErrorCode; message: string };
const OK: ProcurementCheck = { ok: true };

const STATUS_WORDS: Readonly<Record<SpendRequestStatus, string>> = {
  DRAFT: 'a draft',
  PENDING_APPROVAL: 'waiting for approval',
  APPROVED: 'approved',
  FULFILLED: 'fulfilled',
  REJECTED: 'rejected',
  CANCELED: 'canceled',
};
export const spendRequestStatusWords = (s: SpendRequestStatus) => STATUS_WORDS[s];

/** May `action` be done on a request in `status`? The refusal names the status. */
export function checkSpendRequestAction(action: SpendRequestAction, status: SpendRequestStatus): ProcurementCheck {
  if (ACTION_STATUSES[action].includes(status)) return OK;
  return { ok: false, code: 'PROCUREMENT_7003', message: `This request is ${STATUS_WORDS[status]}: it can no longer be ${ACTION_WORDS[action]}.` };
}
const ACTION_WORDS: Readonly<Record<SpendRequestAction, string>> = {
  edit: 'edited', submit: 'submitted', cancel: 'canceled', delete: 'deleted', attach: 'given documents',
};

/** The §3 flag switching each request type (all default on). */
export const SPEND_REQUEST_TYPE_FLAGS: Readonly<Record<SpendRequestType, FeatureFlagName>> = {
  GENERAL_EXPENSE: 'general_expenses_spend_requests_enabled',
  PRODUCT_OR_SERVICE: 'product_or_service_spend_requests_enabled',
  PHYSICAL_CARD: 'physical_card_spend_requests_enabled',
};

/** A request's total: the lines' quantity × unit price. */
export const linesTotal = (lines: readonly Pick<RequestLine, 'quantity' | 'unit_price'>[]) =>
  lines.reduce((sum, l) => sum + l.quantity * l.unit_price, 0);

type RequestFields = Pick<SpendRequest, 'type' | 'amount' | 'vendor_id' | 'line_items' | 'spend_allocation_id' | 'needed_by'>;

/**
 * Field errors of a request as it would be submitted (by field, in words), empty when it may be:
 * PRODUCT_OR_SERVICE needs a vendor and at least one line, and its lines must add up to the
 * amount; only GENERAL_EXPENSE may name an allocation; PHYSICAL_CARD and GENERAL_EXPENSE carry no
 * lines; `needed_by` is not before `today` (YYYY-MM-DD, the requester's day).
 */
export function spendRequestErrors(r: RequestFields, today: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (r.type === 'PRODUCT_OR_SERVICE') {
    if (!r.vendor_id) errors.vendor_id = 'Choose the vendor to buy from.';
    if (r.line_items.length === 0) errors.line_items = 'Add at least one line: what, how many, at what price.';
    else if (linesTotal(r.line_items) !== r.amount.amount) errors.amount = 'The amount must equal the lines\' total (quantity × unit price).';
  } else if (r.line_items.length > 0) {
    errors.line_items = 'Only a product or service request has line items.';
  }
  if (r.spend_allocation_id && r.type !== 'GENERAL_EXPENSE') errors.spend_allocation_id = 'Only a general expense request can add room to a budget.';
  if (r.needed_by && r.needed_by < today) errors.needed_by = 'The date needed by cannot be in the past.';
  return errors;
}

/** The PO's status from its lines' received quantities (a CLOSED PO stays closed). */
export function purchaseOrderStatus(po: Pick<PurchaseOrder, 'status' | 'lines'>): PurchaseOrderStatus {
  if (po.status === 'CLOSED') return 'CLOSED';
  const received = po.lines.reduce((n, l) => n + l.received_quantity, 0);
  if (received === 0) return 'OPEN';
  return po.lines.every((l) => l.received_quantity >= l.quantity) ? 'RECEIVED' : 'PARTIALLY_RECEIVED';
}

/**
 * May these receipt lines be recorded against the PO? Refused on a CLOSED PO (PROCUREMENT_7011),
 * for a line not on this PO (PROCUREMENT_7012), for a line named twice (PROCUREMENT_7012), or
 * beyond what is still to arrive (PROCUREMENT_7010, naming the line and what is left).
 */
export function checkItemReceipt(po: Pick<PurchaseOrder, 'status' | 'lines'>, lines: readonly ItemReceiptLine[]): ProcurementCheck {
  if (po.status === 'CLOSED') return { ok: false, code: 'PROCUREMENT_7011', message: 'This purchase order is closed: nothing more can be received against it.' };
  const seen = new Set<string>();
  for (const l of lines) {
    const line = po.lines.find((x) => x.id === l.po_line_id);
    if (!line || seen.has(l.po_line_id)) {
      return { ok: false, code: 'PROCUREMENT_7012', message: line ? 'A line is named twice in this receipt.' : 'A receipt line names a line that is not on this purchase order.' };
    }
    seen.add(l.po_line_id);
    const left = line.quantity - line.received_quantity;
    if (l.quantity > left) {
      return {
        ok: false, code: 'PROCUREMENT_7010',
        message: `"${line.description}": ${l.quantity} received but only ${left} of ${line.quantity} ordered ${left === 1 ? 'is' : 'are'} still to arrive.`,
      };
    }
  }
  return OK;
}

/** The PO after a receipt (or, with `sign` −1, after one is deleted): received quantities and status. */
export function applyItemReceipt<P extends Pick<PurchaseOrder, 'status' | 'lines'>>(po: P, lines: readonly ItemReceiptLine[], sign: 1 | -1 = 1): P {
  const by = new Map(lines.map((l) => [l.po_line_id, l.quantity]));
  const next = { ...po, lines: po.lines.map((l) => ({ ...l, received_quantity: Math.max(0, l.received_quantity + sign * (by.get(l.id) ?? 0)) })) };
  return { ...next, status: purchaseOrderStatus(next) };
}
