import { z } from 'zod';
import { isoDateTime, uuid } from './common.ts';

/**
 * A payer's bill (and its latest payment attempt) as the network vendor sees it in the portal
 * (issue 31 §2.3): who pays, which invoice, how much, where it stands and when the money is
 * expected (schema/payment-rails.ts `railArrival` from the send day; null until it is sent or scheduled).
 */
export const portalPaymentSchema = z.object({
  bill_id: uuid,
  business_id: uuid,
  payer_name: z.string(),
  invoice_number: z.string(),
  amount: z.object({ amount: z.number().int(), currency: z.string() }),
  due_date: z.string(),
  bill_status: z.string(),
  payment_status: z.enum(['PENDING', 'SETTLED', 'FAILED', 'REVERSED']).nullable(),
  rail: z.enum(['ACH', 'CHECK', 'WIRE']).nullable(),
  payment_date: z.string().nullable(),
  expected_settlement_date: z.string().nullable(),
  paid_at: isoDateTime.nullable(),
});
export type PortalPayment = z.infer<typeof portalPaymentSchema>;
