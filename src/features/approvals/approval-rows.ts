import type { Approval, ApprovalObjectType } from '../../../schema/entities/approval.ts';
import type { Bill } from '../../../schema/entities/bill.ts';
import type { CardRequest } from '../../../schema/entities/card-request.ts';
import type { Reimbursement } from '../../../schema/entities/reimbursement.ts';
import type { SpendRequest } from '../../../schema/entities/spend-request.ts';
import type { Booking, Trip } from '../../../schema/entities/trip.ts';
import type { SyncMarkRow } from '../../components/sync-mark.tsx';
import { claimDescription, TYPE_LABELS } from '../../lib/claim-labels.ts';
import { formatCount, joinList } from '../../lib/format.ts';
import { cardRequestDescription } from '../../lib/card-labels.ts';
import { bookingSummary } from '../../lib/trip-labels.ts';
import { REQUEST_TYPE_LABELS, requestAmountText } from '../../lib/spend-request-labels.ts';
import { OBJECT_TYPE_LABELS } from './approval-labels.ts';

/** An approval as the worker shows it (commands applied) with its outbox marks. */
export type ApprovalView = Approval & SyncMarkRow;
/** A claim as the worker shows it. */
export type ClaimRow = Reimbursement & SyncMarkRow;
/** A card request as the worker shows it. */
export type CardRequestRow = CardRequest & SyncMarkRow;
/** A bill as the worker shows it. */
export type BillRow = Bill & SyncMarkRow;
/** A trip as the worker shows it (issue 27: a travel booking's approval names a booking inside it). */
export type TripRow = Trip & SyncMarkRow;
/** A spend request as the worker shows it (issue 28). */
export type SpendRequestRow = SpendRequest & SyncMarkRow;
/** The reviewed object's row, whichever kind the approval reviews. */
export type ReviewedRow = ClaimRow | CardRequestRow | BillRow | TripRow | SpendRequestRow;

/**
 * The queried collection holding what an approval of this type reviews. A travel booking (issue
 * 27) has none of its own: it lives inside its trip's doc.
 */
export const REVIEWED_COLLECTION = {
  reimbursement: 'reimbursements',
  card_request: 'card_requests',
  bill: 'bills',
  /** The booking lives inside its trip's doc: the trip is found by the traveller and the booking's id (use-inbox-rows.ts). */
  travel_booking: 'trips',
  spend_request: 'spend_requests',
  /** Issue 28: a payment's approval reviews its bill. */
  'vendor-payment': 'bills',
  /** Issue 28: a payee change reviews a vendor, which is reference data (read from it where shown). */
  payee: null,
} as const satisfies Record<ApprovalObjectType, string | null>;

/**
 * One inbox row: the approval joined with what it reviews (a claim or a card request) and the
 * submitter's name. The row's id is the approval's (what approve/reject act on); its sync mark is
 * the decision's, else the reviewed row's (a claim or request refused by the server shows too).
 */
export interface InboxRow extends SyncMarkRow {
  id: string;
  kind: ApprovalObjectType;
  approval: ApprovalView;
  /** The claim (kind `reimbursement`); null while it has not reached this device's mirror. */
  claim: ClaimRow | null;
  /** The card request (kind `card_request`); null while it has not reached this device's mirror. */
  request: CardRequestRow | null;
  /** The bill (kind `bill`); null while it has not reached this device's mirror. */
  bill: BillRow | null;
  /** Issue 27 (kind `travel_booking`): the trip and the booking inside it; null while not on this device. */
  trip?: TripRow | null;
  booking?: Booking | null;
  /** Issue 28 (kind `spend_request`): the request; null while it has not reached this device's mirror. */
  spendRequest?: SpendRequestRow | null;
  /** Issue 28 (kind `payee`): the vendor whose new payee details wait (reference data, named where shown). */
  vendorId?: string | null;
  /** Who submitted it: the claimant or the requester. */
  claimant: string;
  /** The Type column: the claim's type, or "Card request". */
  typeLabel: string;
  /** "Lyft", "Office → Client", "Virtual card · $2,000.00 a month". */
  description: string;
  /** The row in one line, for labels and titles: "Card request · Virtual card · $2,000.00 a month". */
  summary: string;
  /** The requester's reason (card requests); null for claims. */
  reason: string | null;
  /** The claim date or a bill's due date (ISO date), or null (card requests; a row not downloaded yet). */
  date: string | null;
  amount: number | null;
  currency: string | null;
  /** When it was submitted for this review. */
  submitted_at: string;
}

export function joinInboxRow(approval: ApprovalView, reviewed: ReviewedRow | null, userName: (id: string) => string): InboxRow {
  const decision = approval.pending !== null || approval.failure !== null;
  const base = {
    id: approval.id,
    kind: approval.object_type,
    approval,
    claimant: userName(approval.user_id) || 'Someone',
    pending: decision ? approval.pending : (reviewed?.pending ?? null),
    failure: decision ? approval.failure : (reviewed?.failure ?? null),
  };
  if (approval.object_type === 'bill') {
    const bill = reviewed as BillRow | null;
    const description = bill ? billDescription(bill) : 'Bill not downloaded yet';
    const typeLabel = OBJECT_TYPE_LABELS.bill;
    return {
      ...base, claim: null, request: null, bill, typeLabel, description, summary: bill ? `${typeLabel} · ${description}` : description,
      reason: null, date: bill?.due_date ?? null, amount: bill?.amount ?? null, currency: bill?.currency ?? null,
      submitted_at: bill?.submitted_at ?? approval.created_at,
    };
  }
  if (approval.object_type === 'vendor-payment') return vendorPaymentRow(base, reviewed as BillRow | null, approval);
  if (approval.object_type === 'payee') {
    const typeLabel = OBJECT_TYPE_LABELS.payee;
    const description = 'New payee details to approve';
    return {
      ...base, claim: null, request: null, bill: null, vendorId: approval.object_id, typeLabel, description, summary: `${typeLabel} · ${description}`,
      reason: null, date: null, amount: null, currency: null, submitted_at: approval.created_at,
    };
  }
  if (approval.object_type === 'travel_booking') return travelBookingRow(base, approval, reviewed as TripRow | null);
  if (approval.object_type === 'spend_request') return spendRequestRow(base, approval, reviewed as SpendRequestRow | null);
  if (approval.object_type === 'card_request') {
    const request = reviewed as CardRequestRow | null;
    const description = request ? cardRequestDescription(request) : 'Card request not downloaded yet';
    const typeLabel = OBJECT_TYPE_LABELS.card_request;
    return {
      ...base, claim: null, request, bill: null, typeLabel, description, summary: request ? `${typeLabel} · ${description}` : description,
      reason: request?.reason ?? null, date: null, amount: request?.amount ?? null, currency: request?.currency ?? null,
      submitted_at: request?.created_at ?? approval.created_at,
    };
  }
  const claim = reviewed as ClaimRow | null;
  const description = claim ? claimDescription(claim) : 'Claim not downloaded yet';
  return {
    ...base, claim, request: null, bill: null, typeLabel: claim ? TYPE_LABELS[claim.type] : '', description, summary: description, reason: null,
    date: claim?.transaction_date ?? null, amount: claim?.amount ?? null, currency: claim?.currency ?? null,
    submitted_at: claim?.submitted_at ?? approval.created_at,
  };
}

/**
 * An out-of-policy booking waiting for approval: "Lisbon offsite · Flight SFO → LIS · Mar 10 ·
 * Business · $3,120.00", its policy reasons as the row's reason.
 */
function travelBookingRow(base: Pick<InboxRow, 'id' | 'kind' | 'approval' | 'claimant' | 'pending' | 'failure'>, approval: ApprovalView, trip: TripRow | null): InboxRow {
  const booking = trip?.bookings.find((b) => b.id === approval.object_id) ?? null;
  const typeLabel = OBJECT_TYPE_LABELS.travel_booking;
  const description = trip && booking ? `${trip.name} · ${bookingSummary(booking)}` : trip ? `${trip.name} · booking not downloaded yet` : 'Trip not downloaded yet';
  const first = booking?.segments[0]?.departs_at.slice(0, 10) ?? booking?.hotel?.check_in ?? trip?.start_date ?? null;
  return {
    ...base, claim: null, request: null, bill: null, trip, booking, typeLabel, description, summary: `${typeLabel} · ${description}`,
    reason: booking && booking.policy_reasons.length > 0 ? booking.policy_reasons.join(' · ') : null,
    date: first, amount: booking?.price.amount ?? null, currency: booking?.price.currency ?? null,
    submitted_at: booking?.created_at ?? approval.created_at,
  };
}

/**
 * Issue 28: a spend request waiting for approval: "Spend request · General expense · $500.00 a
 * month", its description as the row's reason, the date it is needed by.
 */
function spendRequestRow(base: Pick<InboxRow, 'id' | 'kind' | 'approval' | 'claimant' | 'pending' | 'failure'>, approval: ApprovalView, request: SpendRequestRow | null): InboxRow {
  const typeLabel = OBJECT_TYPE_LABELS.spend_request;
  const description = request ? `${REQUEST_TYPE_LABELS[request.type]} · ${requestAmountText(request)}` : 'Spend request not downloaded yet';
  return {
    ...base, claim: null, request: null, bill: null, spendRequest: request, typeLabel, description,
    summary: request ? `${typeLabel} · ${description}` : description,
    reason: request?.description ?? null, date: request?.needed_by ?? null,
    amount: request?.amount.amount ?? null, currency: request?.amount.currency ?? null,
    submitted_at: request?.submitted_at ?? approval.created_at,
  };
}

/**
 * Issue 28: a bill's payment waiting for approval: "Vendor payment · Invoice INV-1042 · pay on
 * Nov 30", the bill's amount, and the day it would be sent as the row's date.
 */
function vendorPaymentRow(base: Pick<InboxRow, 'id' | 'kind' | 'approval' | 'claimant' | 'pending' | 'failure'>, bill: BillRow | null, approval: ApprovalView): InboxRow {
  const typeLabel = OBJECT_TYPE_LABELS['vendor-payment'];
  const asked = bill?.payment_approval ?? null;
  const description = bill ? `${billDescription(bill)}${asked ? ` · ${asked.method === 'PAY_NOW' ? 'pay now' : `pay on ${asked.pay_on}`}` : ''}` : 'Bill not downloaded yet';
  return {
    ...base, claim: null, request: null, bill, typeLabel, description, summary: `${typeLabel} · ${description}`,
    reason: null, date: asked?.pay_on ?? null, amount: bill?.amount ?? null, currency: bill?.currency ?? null,
    submitted_at: asked?.requested_at ?? approval.created_at,
  };
}

/** "Invoice INV-1042 · October cleaning": a bill in one line (its vendor is named where reference data is at hand). */
export function billDescription(bill: Pick<Bill, 'invoice_number' | 'memo'>): string {
  return `Invoice ${bill.invoice_number}${bill.memo ? ` · ${bill.memo}` : ''}`;
}

export const KIND_NOUNS: Record<ApprovalObjectType, string> = {
  reimbursement: 'claim', card_request: 'card request', bill: 'bill', travel_booking: 'travel booking', spend_request: 'spend request',
  'vendor-payment': 'vendor payment', payee: 'payee change',
};

/** "2 claims", "1 card request", "2 claims, 1 card request and 3 bills": what a decision covered. */
export function reviewedText(kinds: readonly ApprovalObjectType[]): string {
  const parts = (Object.keys(KIND_NOUNS) as ApprovalObjectType[]).flatMap((kind) => {
    const n = kinds.filter((k) => k === kind).length;
    return n > 0 ? [`${formatCount(n)} ${KIND_NOUNS[kind]}${n === 1 ? '' : 's'}`] : [];
  });
  return joinList(parts);
}
