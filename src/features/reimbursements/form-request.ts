import type { ReimbursementType } from '../../../schema/entities/reimbursement.ts';
import type { ReceiptExtracted } from '../../../schema/receipt-matching.ts';
import { emptyClaimValues, prefillFromReceipt, type ClaimFormValues } from './claim-form.ts';
import type { ClaimView } from './claim-labels.ts';

/** The claim form the page has open: a new claim of a type (maybe with receipts and values to start from), or a claim edited. */
export interface FormRequest {
  type: ReimbursementType;
  claim?: ClaimView;
  receiptIds?: string[];
  prefill?: Partial<ClaimFormValues>;
  /** Issue 27: the trip a new claim is linked to once saved (the per-diem form opened from a trip). */
  tripId?: string;
}

/** What the page needs of an inbox receipt to start a claim from it. */
export interface InboxReading {
  id: string;
  local_id: string | null;
  extracted: ReceiptExtracted | null;
}

/**
 * "Create out-of-pocket claim" from the Receipts inbox: the out-of-pocket form with that receipt
 * (client or server id) and what was read from it filled in; without a reading (the inbox could
 * not be read, or the receipt was never read) the receipt alone. Pure; tested.
 */
export function receiptClaimRequest(inbox: readonly InboxReading[], receipt: string | undefined, currency: string, today: string): FormRequest {
  const read = receipt ? inbox.find((r) => r.id === receipt || r.local_id === receipt)?.extracted : undefined;
  const prefill = read ? prefillFromReceipt(emptyClaimValues(currency, today), read, today).values : undefined;
  return { type: 'OUT_OF_POCKET', ...(receipt ? { receiptIds: [receipt] } : {}), ...(prefill ? { prefill } : {}) };
}

/** "Add per diem" from a trip: the per-diem form with the trip's city and days, linked to the trip once saved. Pure; tested. */
export function tripPerDiemRequest(search: { location?: string | undefined; start?: string | undefined; end?: string | undefined; trip?: string | undefined }): FormRequest {
  const prefill: Partial<ClaimFormValues> = {
    ...(search.location ? { location: search.location } : {}),
    ...(search.start ? { start_date: search.start } : {}),
    ...(search.end ? { end_date: search.end } : {}),
  };
  return { type: 'PER_DIEM', prefill, ...(search.trip ? { tripId: search.trip } : {}) };
}
