import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { cardSchema } from '../entities/card.ts';
import { isoDateTime, uuid } from '../entities/common.ts';
import { transactionSchema } from '../entities/transaction.ts';
import { fraudResponseSchema } from '../fraud-rules.ts';

/**
 * Fraud response (issue 24; §7 `POST /v1/auth/transactions/{transaction_canonical_uuid}/fraud-response`).
 * A card charge the rules held (schema/fraud-rules.ts) waits for its cardholder's answer; an
 * admin may answer on the cardholder's behalf (recorded as who answered). Only a FLAGGED
 * transaction takes an answer: another status is 422 naming it, except the same answer again,
 * which answers what the first one did (an offline resend, a double tap). Another business's
 * transaction, or one the caller cannot see, is 404; a visible one neither theirs nor answerable
 * by an admin is 403.
 *
 * NOT_RECOGNIZED: the card is locked at once (if it was active; recorded as locked for suspected
 * fraud), a dispute is opened on the transaction (one per transaction), and the answer offers a
 * replacement card through `cards.reissue`. RECOGNIZED: the hold is cleared and the card's
 * profile learns the charge (its category and country become known, its amount usual).
 */
const DISPUTE_STATUSES = ['OPEN'] as const;

const disputeSchema = z.object({
  id: uuid,
  transaction_id: uuid,
  card_id: uuid,
  reason: z.literal('NOT_RECOGNIZED'),
  status: z.enum(DISPUTE_STATUSES),
  /** The disputed amount, as charged (integer minor units of `currency`). */
  amount: z.number().int(),
  currency: z.string(),
  opened_by: uuid,
  created_at: isoDateTime,
});
export type Dispute = z.infer<typeof disputeSchema>;

const fraudResponseBodySchema = z.object({ response: fraudResponseSchema });

export const fraudResponseResultSchema = z.object({
  response: fraudResponseSchema,
  transaction: transactionSchema,
  /** The card as it is now (LOCKED after NOT_RECOGNIZED, unless it was already not active). */
  card: cardSchema,
  /** Whether the card is locked now (this answer locked it, or it already was). */
  card_locked: z.boolean(),
  /** NOT_RECOGNIZED: the dispute opened on the transaction. */
  dispute: disputeSchema.nullable(),
  /** NOT_RECOGNIZED: how to order a replacement card (null when the card cannot be reissued). */
  reissue: z.object({ call: z.literal('cards.reissue'), method: z.literal('POST'), path: z.string() }).nullable(),
  /** The last change seq this answer wrote (the transaction, and the card it locked). */
  change_seq: z.number().int(),
});
export type FraudResponseResult = z.infer<typeof fraudResponseResultSchema>;

export const respondToFraud = defineCall({
  id: 'transactions.fraudResponse',
  method: 'POST',
  path: '/v1/auth/transactions/:transaction_canonical_uuid/fraud-response',
  auth: { scopes: ['default'] },
  params: z.object({ transaction_canonical_uuid: z.uuid() }),
  body: fraudResponseBodySchema,
  response: fraudResponseResultSchema,
});

export const FRAUD_CALLS = [respondToFraud] as const;
