import type { z } from 'zod';
import {
  getBillPaidByCard, markBillPaidByCard, payByCardMatching, undoBillPaidByCard, type billCardChargeSchema, type payByCardSuggestionSchema,
} from '../../schema/api/calls-bill-card-match.ts';
import type { Bill } from '../../schema/entities/bill.ts';
import { bindDomain, offlineFailure, onlineDomain, via, type OnlineApi, type OnlinePort } from '../online.ts';

/** A card charge as Bill pay names it (merchant, day, amount, card, cardholder). */
export type BillCardCharge = z.output<typeof billCardChargeSchema>;
/** One open bill's suggested charge, its score and reasons in words. */
export type PayByCardSuggestion = z.output<typeof payByCardSuggestionSchema>;

export const PAY_BY_CARD_OFFLINE = offlineFailure('You’re offline. Matching card charges to bills needs a connection: nothing was sent.');

const bill = (id: string) => ({ bill_uuid: id });

/**
 * Bills paid by card (issue 30): direct calls, online only. The suggestions and the link are
 * server reads (the link is not on the mirrored bill doc); the close and its undo change the bill,
 * which comes back through the feed too.
 */
export const BILL_CARD_MATCH_CALLS = onlineDomain(PAY_BY_CARD_OFFLINE, {
  /** The bill's suggested charge (none, or one: one charge per bill across the business). */
  payByCardSuggestions: via(payByCardMatching, (billId: string) => ({ query: { bill_id: billId } }), (d) => ({ suggestions: d.data })),
  /** The charge that closed the bill, or null. */
  billPaidByCard: via(getBillPaidByCard, (billId: string) => ({ params: bill(billId) }), (d) => ({ charge: d.transaction })),
  /** Closes the bill as paid by the charge: one key per confirmation, so a retry after a lost answer is the same close. */
  closeBillByCard: via(markBillPaidByCard, (billId: string, transactionId: string, idempotencyKey?: string) =>
    ({ params: bill(billId), body: { transaction_id: transactionId }, ...(idempotencyKey ? { idempotencyKey } : {}) }),
  (d): { bill: Bill; charge: BillCardCharge } => ({ bill: d.bill, charge: d.transaction })),
  /** Back to APPROVED, the charge let go. */
  undoBillPaidByCard: via(undoBillPaidByCard, (billId: string) => ({ params: bill(billId) }), (b): { bill: Bill } => ({ bill: b })),
});

export type BillCardMatchApi = OnlineApi<typeof BILL_CARD_MATCH_CALLS>;

export const billCardMatchHandlers = (port: OnlinePort): BillCardMatchApi => bindDomain(port, BILL_CARD_MATCH_CALLS);
