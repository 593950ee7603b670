import { z } from 'zod';
import { callGroup } from './call-group.ts';
import { moneyOf, moneyValueSchema } from '../money.ts';

/**
 * Issue 30, §7 Businesses "/autopay_threshold" and "DELETE businesses/autopay_threshold": the
 * business's card autopay threshold (Ramp: once the unpaid card balance reaches it, the balance is
 * paid from Operating at once instead of three days after the charges clear). One threshold per
 * business, in a currency it has a primary OPERATING account in (else 422 TREASURY_7002 naming
 * `amount.currency`). Admins only, as every treasury setting (403 TREASURY_7001 before any lookup).
 * The unpaid card balance is the business's CLEARED card charges no settlement covers yet, in the
 * threshold's currency (without a threshold: the business's home currency).
 */
const scopes = { scopes: ['default'] } as const;

const autopayThresholdBodySchema = z.object({
  /** Integer minor units (cents), above zero, in a currency Intl knows. */
  amount: moneyOf(z.number().int().positive().max(100_000_000_000_000)),
});
export type AutopayThresholdBody = z.infer<typeof autopayThresholdBodySchema>;

export const cardAutopaySchema = z.object({
  autopay_threshold: moneyValueSchema.nullable(),
  unpaid_card_balance: moneyValueSchema,
});
export type CardAutopay = z.infer<typeof cardAutopaySchema>;

const group = callGroup('/v1/auth/businesses', scopes);

export const getAutopayThreshold = group('treasury.cardAutopay.get', 'GET', '/autopay_threshold', { response: cardAutopaySchema });
/**
 * Sets (or replaces) the threshold. When the unpaid balance already reaches it, the card spend is
 * settled in the same request (the answer's unpaid balance is what is left), not at the next hourly run.
 */
export const putAutopayThreshold = group('treasury.cardAutopay.put', 'PUT', '/autopay_threshold', {
  body: autopayThresholdBodySchema, response: cardAutopaySchema,
});
/** Removes the threshold: card spend is paid three days after it clears again. Answers with `autopay_threshold: null`. */
export const deleteAutopayThreshold = group('treasury.cardAutopay.delete', 'DELETE', '/autopay_threshold', { response: cardAutopaySchema });

/** Served (in CATALOGUE, handlers in server/routes/card-autopay.ts). */
export const CARD_AUTOPAY_CALLS = [getAutopayThreshold, putAutopayThreshold, deleteAutopayThreshold] as const;
