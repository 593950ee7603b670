import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { billSchema, billStatusSchema } from '../entities/bill.ts';
import { isoDateTime, uuid } from '../entities/common.ts';
import { transactionSchema } from '../entities/transaction.ts';
import { currencyCodeSchema } from '../money.ts';
import { pageQuerySchema, paginatedSchema } from '../paging.ts';

/**
 * Bills paid by card (issue 30, §7 Bill pay "GET pay-by-card matching"). Someone paid a vendor's
 * invoice with a company card: Bill pay suggests the charge (schema/bill-card-match.ts) and closes
 * the bill against it, so the vendor is never paid twice. Like every bill call, only §6 bill-pay
 * managers (admin, AP clerk, bookkeeper) reach them, 403 before any lookup; another business's
 * bill or charge, or a charge the caller may not see, is 404.
 *
 * Closing posts nothing in the ledger: the card charge is the money movement (the card settlement
 * job settles it with the network). The link is not on the mirrored bill doc (that would need a
 * new mirror version): `paid-by-card` GET reads it, and the close and the suggestions carry it.
 */
const scopes = { scopes: ['default'] } as const;
const BASE = '/v1/auth/bill-pay';
const billParams = z.object({ bill_uuid: z.uuid() });

/** A card charge as Bill pay names it: merchant, day, amount, card and cardholder. */
export const billCardChargeSchema = z.object({
  id: uuid,
  merchant_name: z.string(),
  amount: z.number().int(),
  currency: currencyCodeSchema,
  occurred_at: isoDateTime,
  state: transactionSchema.shape.state,
  card_id: uuid,
  card_name: z.string(),
  card_last_four: z.string(),
  user_id: uuid,
  cardholder_name: z.string(),
});
export type BillCardCharge = z.infer<typeof billCardChargeSchema>;

/** One suggestion: the open bill, the charge that looks like its payment, how sure, and why in words. */
export const payByCardSuggestionSchema = z.object({
  bill_id: uuid,
  transaction_id: uuid,
  /** 0..1 (schema/bill-card-match.ts). */
  score: z.number().min(0).max(1),
  /** The charge's UTC day minus the invoice date. */
  days: z.number().int(),
  reasons: z.array(z.string()),
  bill: z.object({
    invoice_number: z.string(), vendor_id: uuid, vendor_name: z.string(), amount: z.number().int(), currency: currencyCodeSchema,
    invoice_date: z.iso.date(), status: billStatusSchema,
  }),
  transaction: billCardChargeSchema,
});
export type PayByCardSuggestion = z.infer<typeof payByCardSuggestionSchema>;

/**
 * Suggestions for the caller's open bills (APPROVED, SCHEDULED or PAYMENT_FAILED, no payment
 * sent or settled) and the CLEARED or PENDING card charges they may see that close no bill yet;
 * one charge per bill and one bill per charge, best first. `bill_id`: that bill's (none, or one).
 */
export const payByCardMatching = defineCall({
  id: 'bills.payByCard.matching', method: 'GET', path: `${BASE}/pay-by-card-matching`, auth: scopes, retry: 'paged',
  query: pageQuerySchema.extend({ bill_id: z.uuid().optional() }), response: paginatedSchema(payByCardSuggestionSchema),
});

const paidByCardSchema = z.object({ bill: billSchema, transaction: billCardChargeSchema });

/**
 * Closes the bill as PAID by the card charge (as mark-as-paid does, `paid_manually`), linked to it.
 * Refused (REQUEST_7001, naming why) when the bill is not payable (its status), has a payment sent
 * or settled, or the charge is of another currency or amount, paid nothing (declined, reversed) or
 * already closes another bill. The same call again answers the same bill.
 */
export const markBillPaidByCard = defineCall({
  id: 'bills.payByCard.close', method: 'POST', path: `${BASE}/:bill_uuid/paid-by-card`, auth: scopes, params: billParams,
  body: z.object({ transaction_id: z.uuid() }), response: paidByCardSchema,
});

/** The charge that paid the bill, or null (a bill not closed by card). */
export const getBillPaidByCard = defineCall({
  id: 'bills.payByCard.get', method: 'GET', path: `${BASE}/:bill_uuid/paid-by-card`, auth: scopes, params: billParams,
  response: z.object({ bill_id: uuid, transaction: billCardChargeSchema.nullable() }),
});

/** Undo: PAID → APPROVED (the status machine's way back from PAID), the link cleared; only a bill closed by card, not reconciled. */
export const undoBillPaidByCard = defineCall({
  id: 'bills.payByCard.undo', method: 'DELETE', path: `${BASE}/:bill_uuid/paid-by-card`, auth: scopes, params: billParams,
  response: billSchema,
});

export const BILL_CARD_MATCH_CALLS = [payByCardMatching, markBillPaidByCard, getBillPaidByCard, undoBillPaidByCard] as const;
