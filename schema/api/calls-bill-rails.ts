import { z } from 'zod';
import { defineCall } from './define-call.ts';
import { billSchema } from '../entities/bill.ts';

/**
 * Issue 30, spec §7 "Bill pay": the documents of a payment attempt sent on a rail other than ACH
 * (schema/payment-rails.ts). Read by whoever may read a bill's payments (bill managers:
 * `mayManageBills`, 403 before any lookup); another business's payment is 404 REQUEST_7004; a
 * payment on another rail is 422 BILL_PAY_7103 naming its rail.
 */
const scopes = { scopes: ['default'] } as const;
const PAYMENTS = '/v1/auth/bill-pay/payments';
const paymentParams = z.object({ payment_uuid: z.uuid() });

/** An SVG image as a data URL (`data:image/svg+xml;base64,…`): every text in it escaped, no script, no external reference. */
const svgDataUrl = z.string().startsWith('data:image/svg+xml;base64,');

export const checkImagesSchema = z.object({
  payment_id: z.uuid(),
  check_number: z.number().int().positive(),
  /** PENDING: mailed, not cleared; SETTLED: cleared; REVERSED: voided (or reversed). */
  status: z.enum(['PENDING', 'SETTLED', 'FAILED', 'REVERSED']),
  mailed_at: z.string().nullable(),
  cleared_at: z.string().nullable(),
  voided_at: z.string().nullable(),
  /** Payer, payee, date, amount in figures and words, memo (invoice number), check number, MICR line (routing and account masked but for the last 4). */
  front: svgDataUrl,
  /** The endorsement area; "For deposit only" with the payee once the check cleared. */
  back: svgDataUrl,
});
export type CheckImages = z.infer<typeof checkImagesSchema>;

/** The check's front and back as SVG images (JSON with data URLs, so an image is never served as a document of our origin). */
export const getCheckImages = defineCall({
  id: 'bills.payments.checkImages', method: 'GET', path: `${PAYMENTS}/:payment_uuid/check-images`, auth: scopes,
  params: paymentParams, response: checkImagesSchema,
});

/**
 * A wire's MT103 (SWIFT FIN customer credit transfer): `text/plain; charset=utf-8`, attachment
 * `MT103-<reference>.txt`, blocks 1–5 with block 3's UETR {121:} and block 4's fields :20:, :23B:,
 * :32A:, :33B:, :50K:, :52D:, :57D:, :59:, :70:, :71A:, lines of at most 35 characters of the
 * SWIFT X character set.
 */
export const getMt103 = defineCall({
  id: 'bills.payments.mt103', method: 'GET', path: `${PAYMENTS}/:payment_uuid/mt103`, auth: scopes,
  params: paymentParams, response: z.string(),
});

/**
 * Voids a mailed check before it clears (a stop payment): the attempt becomes REVERSED with
 * `voided_at`, its money goes back to the operating account it left, and the bill is APPROVED
 * again, to be paid anew. A check that cleared, or any other state, is 409 BILL_PAY_7104; another
 * rail 422 BILL_PAY_7103. Answers the bill.
 */
export const voidCheck = defineCall({
  id: 'bills.payments.voidCheck', method: 'POST', path: `${PAYMENTS}/:payment_uuid/void-check`, auth: scopes,
  params: paymentParams, body: z.object({}).optional(), response: billSchema,
});

export const BILL_RAIL_CALLS = [getCheckImages, getMt103, voidCheck] as const;
